/**
 * The embedded demo's "now" (prisma/demo-data/clock.ts, DEMO_REFERENCE_NOW) for the launcher, which runs as plain
 * JavaScript: the demo data's history ends there, so the portfolio's 7- and 30-day windows end there too
 * (PORTFOLIO_AS_OF). scripts/demo-clock.test.ts keeps the two equal.
 */
export const DEMO_NOW_ISO = "2026-11-20T12:00:00.000Z";
