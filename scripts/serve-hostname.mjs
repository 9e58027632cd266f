/*
 * Where `npm run dev` / `npm start` listen. Next.js listens on every interface unless told otherwise; with demo
 * authentication (any token is accepted) that would hand the demo data to the whole network, so demo mode listens
 * on 127.0.0.1 unless HOSTNAME (or -H / --hostname) says where. Plain JavaScript: scripts/serve.mjs imports it.
 */

export const LOOPBACK = "127.0.0.1";

/**
 * The Next.js arguments with the hostname to listen on, and the line to print about it (none when the operator
 * chose the hostname on the command line).
 * @param {Record<string, string | undefined>} env
 * @param {string[]} nextArgs
 * @returns {{ args: string[], notice?: string }}
 */
export function listenArguments(env, nextArgs) {
  // Outside demo mode Next.js's own default stands (every interface), as a container deployment expects.
  if (env.AUTH_MODE !== "demo") return { args: nextArgs };
  if (nextArgs.some((a) => a === "-H" || a === "--hostname" || a.startsWith("--hostname=")))
    return { args: nextArgs };
  if (env.HOSTNAME) {
    return {
      args: [...nextArgs, "--hostname", env.HOSTNAME],
      notice: `Demo mode listens on HOSTNAME=${env.HOSTNAME} as set: whoever reaches it reads the demo data with any token.`,
    };
  }
  return {
    args: [...nextArgs, "--hostname", LOOPBACK],
    notice: `Demo mode listens on ${LOOPBACK} only (this machine). Set HOSTNAME (e.g. HOSTNAME=0.0.0.0) to listen elsewhere.`,
  };
}
