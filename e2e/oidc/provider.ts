import Provider, { type KoaContextWithOIDC } from "oidc-provider";
import { OIDC_ACCOUNTS, OIDC_E2E } from "./oidc-config.ts";

/*
 * A real OpenID provider (oidc-provider, certified) on loopback with its default claims behaviour: the ID
 * token carries only `sub`, profile and e-mail claims come from userinfo. Its development login and consent
 * pages are the interaction; any password is accepted for the accounts below.
 */

const accounts: Record<string, Record<string, unknown>> = OIDC_ACCOUNTS;

// The default page imports a web font from the internet; the tests stay on loopback.
async function logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  ctx.type = "html";
  ctx.body = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Sign out</title></head><body>
    <h1>Sign out of ${OIDC_E2E.providerName}?</h1>${form}
    <button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
    <button type="submit" form="op.logoutForm">No, stay signed in</button></body></html>`;
}

const provider = new Provider(OIDC_E2E.issuer, {
  clients: [
    {
      client_id: OIDC_E2E.backOffice.clientId,
      client_secret: OIDC_E2E.backOffice.clientSecret,
      redirect_uris: [`${OIDC_E2E.appUrl}/api/auth/callback/oidc`],
      post_logout_redirect_uris: [`${OIDC_E2E.appUrl}/sign-in`],
    },
    {
      client_id: OIDC_E2E.otherClient.clientId,
      client_secret: OIDC_E2E.otherClient.clientSecret,
      redirect_uris: [OIDC_E2E.otherClient.redirectUri],
    },
  ],
  claims: { openid: ["sub"], profile: ["name", "role", "groups"], email: ["email"] },
  async findAccount(_ctx, id) {
    const claims = accounts[id];
    if (!claims) return undefined;
    return { accountId: id, claims: async () => ({ sub: id, ...claims }) };
  },
  features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true, logoutSource } },
  cookies: { keys: ["oidc-e2e-cookie-key-0123456789abcdef"] },
});

provider.listen(OIDC_E2E.providerPort, "127.0.0.1", () => {
  console.log(`oidc-provider listening at ${OIDC_E2E.issuer}`);
});
