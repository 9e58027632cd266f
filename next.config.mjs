/** @type {import('next').NextConfig} */
const nextConfig = {
  // These load WebAssembly or native-ish modules at run time; keep them out of the bundle.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "@prisma/schema-engine-wasm",
    "pg",
  ],
  poweredByHeader: false,
  // Parallel builds (e.g. tests of two worktrees) can use separate output folders.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  typedRoutes: false,
};

export default nextConfig;
