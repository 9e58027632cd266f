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
          include: ["lib/**/*.test.ts", "prisma/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["lib/**/*.int.test.ts", "prisma/**/*.int.test.ts", "scripts/**/*.int.test.ts"],
          environment: "node",
          globalSetup: ["scripts/vitest-integration-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One database per run, shared by the files: run them one after another.
          fileParallelism: false,
        },
      },
    ],
  },
});
