/** Next.js calls this once per server process at start (https://nextjs.org/docs/app/guides/instrumentation). */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { registerServerHooks } = await import("./lib/runtime/server-hooks.ts");
  await registerServerHooks();
}
