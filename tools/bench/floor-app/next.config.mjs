/*
 * The benchmark's floor: a minimal Next.js app (route handlers only) doing the product's cheap reads with the
 * product's Prisma client and nothing else. Same Next.js and Prisma as the product, same externals for pg;
 * none of the product's work (authentication, validation, rate limit, audit, logs, security headers).
 */
import { fileURLToPath } from "node:url";

// The repository: the floor imports the product's generated Prisma client and resolves node_modules from there.
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

/** @type {import('next').NextConfig} */
const nextConfig = {
  serverExternalPackages: ["pg"],
  poweredByHeader: false,
  turbopack: { root: repoRoot },
  outputFileTracingRoot: repoRoot,
  // The repository's `npm run typecheck` and Biome cover these files; the floor's build need not repeat it.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
