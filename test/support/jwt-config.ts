/** The AUTH_MODE=jwt test server's settings: playwright.config.ts starts it with these, the specs sign with them. */
export const E2E_JWT = {
  secret: "e2e-jwt-shared-secret-0123456789abcdef0123456789",
  issuer: "https://auth.e2e.test",
  audience: "player-account-read-e2e",
} as const;
