/** Scripts that write to a server need an explicit target; the embedded database is managed by scripts/serve.mjs. */
export function requireDatabaseUrl(script: string): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(
      `${script}: set DATABASE_URL (e.g. postgresql://postgres@127.0.0.1:5432/postgres). ` +
        "The embedded database is migrated and seeded automatically by `npm run dev` / `npm start`.",
    );
    process.exit(2);
  }
  return url;
}
