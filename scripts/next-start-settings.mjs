/*
 * The production start settings of `npm start` (scripts/serve.mjs), shared with the benchmark's floor app
 * (tools/bench/floor-app) so both Next.js servers run alike. Plain JavaScript: the launcher loads no TypeScript.
 */

/** The environment of a production Next.js server: a heap cap and few malloc arenas (unless already set). */
export function productionStartEnv(env) {
  const out = { ...env };
  // Node's heap grows lazily up to ~2 GB: under load it kept hundreds of MB of garbage. A cap makes it collect
  // sooner (measured: peak RSS under 32 concurrent exports 510 MB → under 300 MB). NODE_OPTIONS overrides it.
  if (!/--max-old-space-size/.test(out.NODE_OPTIONS ?? "")) {
    out.NODE_OPTIONS = `${out.NODE_OPTIONS ?? ""} --max-old-space-size=256`.trim();
  }
  // glibc gives each thread its own malloc arena; a few are enough and keep the resident set smaller.
  out.MALLOC_ARENA_MAX ??= "2";
  return out;
}

/** `next start` options: a keep-alive timeout longer than clients' and load balancers' (unless given). */
export function productionStartArgs(args) {
  if (args.some((a) => a.startsWith("--keepAliveTimeout"))) return [...args];
  // Node closes an idle keep-alive connection after 5 s. A client (or a load balancer: 60 s on AWS) that reuses
  // it just then gets ECONNRESET, as the test suite's HTTP client did under load. Outlast their idle timeouts.
  return [...args, "--keepAliveTimeout", "65000"];
}
