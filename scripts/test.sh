#!/usr/bin/env bash
# The whole test suite: unit, integration (embedded + PostgreSQL), production build, HTTP and UI tests, and the
# trust tests (database outage, SIGTERM, shared rate limits, a short soak; e2e/trust).
# PostgreSQL is the local server (TEST_POSTGRES_URL overrides; TEST_DB_PREFIX names the test databases and Redis
# keys; E2E_EMBEDDED_PORT / E2E_POSTGRES_PORT / E2E_JWT_PORT / E2E_OIDC_PORT choose the ports of the app servers,
# E2E_OIDC_PROVIDER_PORT that of the test OpenID provider (e2e/oidc), the trust tests
# use ports from E2E_POSTGRES_PORT + 8). Without it the PostgreSQL runs are skipped with a warning, except under
# CI=true where they are required. Redis (TEST_REDIS_URL, default 127.0.0.1:6379) likewise, and NATS JetStream
# (TEST_NATS_URL, default 127.0.0.1:4222, with the nats-server binary on PATH: the live tests in test/live start
# throwaway servers of their own from it, on ports from E2E_POSTGRES_PORT + 30).
set -euo pipefail
cd "$(dirname "$0")/.."

pg_ok=1
node --import tsx -e 'import("./test/support/test-db.ts").then(async m => process.exit((await m.postgresReachable()) ? 0 : 1))' || pg_ok=0
if [ "$pg_ok" = 0 ]; then
  if [ "${CI:-}" = "true" ]; then echo "PostgreSQL is not reachable at ${TEST_POSTGRES_URL:-127.0.0.1:5432}; CI requires it." >&2; exit 1; fi
  echo "WARNING: PostgreSQL not reachable; running on the embedded database only." >&2
fi

# Whether something accepts TCP connections at URL (its port, else DEFAULT_PORT) within 2 s.
listening() {
  URL="$1" DEFAULT_PORT="$2" node -e '
    const u = new URL(process.env.URL);
    const s = require("node:net").connect({ host: u.hostname, port: Number(u.port || process.env.DEFAULT_PORT) }, () => process.exit(0));
    s.on("error", () => process.exit(1));
    setTimeout(() => process.exit(1), 2000);'
}

redis_ok=1
listening "${TEST_REDIS_URL:-redis://127.0.0.1:6379}" 6379 || redis_ok=0
if [ "$redis_ok" = 0 ]; then
  if [ "${CI:-}" = "true" ]; then echo "Redis is not reachable at ${TEST_REDIS_URL:-127.0.0.1:6379}; CI requires it." >&2; exit 1; fi
  echo "WARNING: Redis not reachable; the shared rate-limit tests are skipped." >&2
fi

nats_ok=1
listening "${TEST_NATS_URL:-nats://127.0.0.1:4222}" 4222 && command -v nats-server >/dev/null 2>&1 || nats_ok=0
if [ "$nats_ok" = 0 ]; then
  if [ "${CI:-}" = "true" ]; then echo "NATS JetStream is not reachable at ${TEST_NATS_URL:-127.0.0.1:4222} (or nats-server is not on PATH); CI requires it." >&2; exit 1; fi
  echo "WARNING: NATS (nats-server) not available; the live read model tests (test/live) are skipped." >&2
fi

echo "== OpenAPI document (Redocly and Spectral, offline)"
npx tsx scripts/lint-openapi.ts

echo "== unit tests"
npx vitest run --project unit

echo "== integration tests (embedded PGlite)"
TEST_DB=embedded npx vitest run --project integration
if [ "$pg_ok" = 1 ]; then
  echo "== integration tests (PostgreSQL)"
  TEST_DB=postgres npx vitest run --project integration
fi

echo "== production build"
npm run build

echo "== end-to-end tests (HTTP API and UI in Chromium)"
# The typed client's types (e2e/api/generated, not committed) follow the OpenAPI document of this checkout.
npx tsx tools/openapi-client-types.ts
# A fresh embedded database for every run, with the demo data and the test fixtures.
node --import tsx -e 'import("./test/support/test-db.ts").then(m => m.prepareEmbeddedDataDir(".data/e2e-pglite"))'
targets="embedded"
if [ "$pg_ok" = 1 ]; then
  E2E_POSTGRES_URL=$(node --import tsx -e 'import("./test/support/test-db.ts").then(async m => { const u = await m.recreatePostgresDatabase(`${process.env.TEST_DB_PREFIX ?? "par"}_e2e`); await m.migrateAndSeed(u); console.log(u); })')
  export E2E_POSTGRES_URL
  targets="embedded,postgres,jwt,oidc"
fi
PLAYWRIGHT_TARGETS="$targets" npx playwright test "$@"
