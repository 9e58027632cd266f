/*
 * The OpenID provider test's settings: playwright.config.ts starts the provider (e2e/oidc/provider.ts) and
 * an AUTH_MODE=jwt app server with these, and the specs sign in with them. Loopback only.
 */
const providerPort = Number(process.env.E2E_OIDC_PROVIDER_PORT ?? 3104);
const appPort = Number(process.env.E2E_OIDC_PORT ?? 3105);

export const OIDC_E2E = {
  providerPort,
  appPort,
  issuer: `http://127.0.0.1:${providerPort}`,
  appUrl: `http://127.0.0.1:${appPort}`,
  providerName: "Test IdP",
  backOffice: {
    clientId: "player-accounts-e2e",
    clientSecret: "back-office-client-secret-e2e-0123456789",
    // Registered besides the app's callback, never served (404): a test playing the back office's part reads
    // the code from the redirect without the app seeing it.
    testRedirectUri: `http://127.0.0.1:${providerPort}/back-office-test/callback`,
  },
  // The API's own audience (AUTH_JWT_AUDIENCE): never the back office's client id, which its ID tokens name.
  apiAudience: "player-account-read-api-e2e",
  // A second application of the same provider: its ID tokens must not open the back office's API.
  otherClient: {
    clientId: "another-app-e2e",
    clientSecret: "another-app-client-secret-e2e-0123456789",
    // Never served (404): the test reads the code from the redirect.
    redirectUri: `http://127.0.0.1:${providerPort}/another-app/callback`,
  },
  // A service calling the API with the provider's RFC 9068 access tokens (client credentials, resource indicator).
  serviceClient: {
    clientId: "reporting-service-e2e",
    clientSecret: "reporting-service-secret-e2e-0123456789",
  },
  apiResource: "urn:e2e:player-account-read-api",
  appJwtSecret: "oidc-e2e-app-token-secret-0123456789abcdef",
  // The app server re-reads signed-in users' roles from the provider this often (AUTH_ROLE_RECHECK_SECONDS).
  roleRecheckSeconds: 10,
  accessContact: "the back-office access team (access@operator.example)",
} as const;

/** The provider's accounts: the role in `role`, in `groups`, or none at all. */
export const OIDC_ACCOUNTS = {
  "sam.support": { name: "Sam Support", email: "sam.support@operator.example", role: "support_agent" },
  "ada.admin": { name: "Ada Admin", email: "ada.admin@operator.example", groups: ["staff", "admin"] },
  "nora.norole": { name: "Nora Norole", email: "nora.norole@operator.example", groups: ["staff"] },
  // Her groups are changed at the provider by the test (PUT /test/accounts/rita.roles).
  "rita.roles": { name: "Rita Roles", email: "rita.roles@operator.example", groups: ["admin"] },
} as const satisfies Record<string, Record<string, unknown>>;

export type OidcLogin = keyof typeof OIDC_ACCOUNTS;
