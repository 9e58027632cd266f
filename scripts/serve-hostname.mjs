/*
 * Where `npm run dev` / `npm start` listen. Next.js listens on every interface unless told otherwise (`next start`
 * does not read HOSTNAME); with demo authentication (any token is accepted) that would hand the demo data to the
 * whole network, so demo mode listens on 127.0.0.1 unless LISTEN_HOST (or -H / --hostname) says where, and says
 * so. HOSTNAME is not that setting: Docker and many shells set it to the machine's own name, whose address the
 * network reaches. Plain JavaScript: scripts/serve.mjs imports it.
 */

export const LOOPBACK = "127.0.0.1";

const LOOPBACK_NAMES = new Set([LOOPBACK, "localhost", "::1", "[::1]"]);

/** @param {string[]} nextArgs */
function hostnameArgument(nextArgs) {
  const at = nextArgs.findIndex((a) => a === "-H" || a === "--hostname");
  if (at !== -1) return nextArgs[at + 1] ?? "";
  return nextArgs.find((a) => a.startsWith("--hostname="))?.slice("--hostname=".length);
}

/** @param {string} where @param {string} how */
const exposed = (where, how) =>
  `Demo mode listens on ${where} (${how}): whoever reaches it there reads the demo data with any token.`;

/**
 * The Next.js arguments with the hostname to listen on, and the line to print about it.
 * @param {Record<string, string | undefined>} env
 * @param {string[]} nextArgs
 * @returns {{ args: string[], notice?: string }}
 */
export function listenArguments(env, nextArgs) {
  const demo = env.AUTH_MODE === "demo";
  const given = hostnameArgument(nextArgs);
  if (given !== undefined) {
    return {
      args: nextArgs,
      notice: demo && !LOOPBACK_NAMES.has(given) ? exposed(given, "--hostname") : undefined,
    };
  }
  if (env.LISTEN_HOST) {
    const host = env.LISTEN_HOST;
    return {
      args: [...nextArgs, "--hostname", host],
      notice:
        demo && !LOOPBACK_NAMES.has(host)
          ? exposed(host, "LISTEN_HOST")
          : `Listening on LISTEN_HOST=${host}.`,
    };
  }
  // Outside demo mode Next.js's own default stands (every interface), as a container deployment expects.
  if (!demo) return { args: nextArgs };
  const ignored = env.HOSTNAME
    ? ` HOSTNAME (${env.HOSTNAME}) is not used for this: containers set it to their own name.`
    : "";
  return {
    args: [...nextArgs, "--hostname", LOOPBACK],
    notice: `Demo mode listens on ${LOOPBACK} only (this machine). Set LISTEN_HOST (e.g. LISTEN_HOST=0.0.0.0) to listen elsewhere.${ignored}`,
  };
}
