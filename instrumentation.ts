/** Next.js calls this once per server process at start (https://nextjs.org/docs/app/guides/instrumentation). */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { registerServerHooks } = await import("./platform/runtime/server-hooks.ts");
  const { getPlayerChangeFeed, stopPlayerChangeFeed } = await import(
    "./features/live/data/player-change-feed.ts"
  );
  // The platform knows no feature: the live feed is handed to it here, where the application is composed.
  await registerServerHooks({
    feeds: [{ start: () => void getPlayerChangeFeed(), stop: stopPlayerChangeFeed }],
  });
}
