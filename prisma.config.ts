import { defineConfig } from "prisma/config";

// The CLI is only used for `prisma generate` here; migrations are applied by platform/db/migrate.ts
// (the WASM schema engine), so no datasource URL is required to generate the client.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  ...(process.env.DATABASE_URL ? { datasource: { url: process.env.DATABASE_URL } } : {}),
});
