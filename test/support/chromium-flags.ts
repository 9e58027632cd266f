/**
 * Debian's Chromium as the UI tests (playwright.config.ts) and `npm run lighthouse` start it: no sandbox (CI runs
 * as root), no GPU, and none of its background traffic, which would only add noise.
 */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
