import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

/*
 * `import "server-only"` marks the server's modules; Next.js resolves it by layer (a client bundle that reaches one
 * fails the build). Tests run on the server side: the marker's empty module, as Next.js maps it for its server.
 */
const serverOnly = fileURLToPath(
  new URL("node_modules/next/dist/compiled/server-only/empty.js", import.meta.url),
);

export default defineConfig({
  resolve: { alias: { "@": root, "server-only": serverOnly } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "{platform,features,workers,prisma,scripts,tools,test}/**/*.test.ts",
            "{platform,features}/**/*.test.tsx",
          ],
          // Build output (the bench's floor app builds into tools/bench/floor-app/.next) holds copies of packages' tests.
          exclude: ["**/*.int.test.ts", "**/node_modules/**", "**/.next/**"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["{platform,features,workers,prisma,scripts,tools,test}/**/*.int.test.ts"],
          exclude: ["**/node_modules/**", "**/.next/**"],
          environment: "node",
          globalSetup: ["test/support/vitest-integration-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One database per run, shared by the files: run them one after another.
          fileParallelism: false,
        },
      },
    ],
  },
});
