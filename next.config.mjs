/** @type {import('next').NextConfig} */
const nextConfig = {
  // These load WebAssembly or native-ish modules at run time; keep them out of the bundle.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "@prisma/schema-engine-wasm",
    "pg",
    "ioredis",
  ],
  poweredByHeader: false,
  // Compression stays on (Next's default): pages, their scripts and exports must leave compressed when no proxy
  // does it, and turning it off showed no CPU gain beyond the noise here (docs/performance.md).
  // Parallel builds (e.g. tests of two worktrees) can use separate output folders.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  typedRoutes: false,
  // The build type-checks the app, not the Playwright specs: their typed client (e2e/api/generated) is generated
  // from the OpenAPI document by `npm run typecheck` and `npm test`, so a fresh clone builds without it.
  // `npm run typecheck` (tsconfig.json) checks everything, e2e included.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  // No `headers()` rules: the security headers are put on every response before Next.js routes the request
  // (platform/http/request-stamp.mjs), where Next.js would match each rule against every request.
};

export default nextConfig;
