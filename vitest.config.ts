import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{lib,prisma,scripts,tools,test}/**/*.test.ts", "components/**/*.test.tsx"],
          exclude: ["**/*.int.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["{lib,prisma,scripts,tools,test}/**/*.int.test.ts"],
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
