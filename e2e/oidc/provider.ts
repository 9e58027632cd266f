import Provider, { errors, type KoaContextWithOIDC } from "oidc-provider";
import { OIDC_ACCOUNTS, OIDC_E2E } from "./oidc-config.ts";

/*
 * A real OpenID provider (oidc-provider, certified) on loopback with its default claims behaviour: the ID
 * token carries only `sub`, profile and e-mail claims come from userinfo. Its development login and consent
 * pages are the interaction; any password is accepted for the accounts below. The back office's client gets
 * refresh tokens (its users' roles are re-read with them); a service client gets RFC 9068 JWT access tokens
 * for the API's resource. Test-only: PUT /test/accounts/<login> replaces an account's claims, DELETE removes it;
 * GET /test/id-tokens lists the ID tokens the token endpoint has issued to the back office, so that a test can look
 * for them where the back office must not keep them.
 */

const accounts = new Map<string, Record<string, unknown>>(Object.entries(OIDC_ACCOUNTS));

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
      grant_types: ["authorization_code", "refresh_token"],
      redirect_uris: [`${OIDC_E2E.appUrl}/api/auth/callback/oidc`, OIDC_E2E.backOffice.testRedirectUri],
      post_logout_redirect_uris: [`${OIDC_E2E.appUrl}/sign-in`],
    },
    {
      client_id: OIDC_E2E.otherClient.clientId,
      client_secret: OIDC_E2E.otherClient.clientSecret,
      redirect_uris: [OIDC_E2E.otherClient.redirectUri],
    },
    {
      client_id: OIDC_E2E.serviceClient.clientId,
      client_secret: OIDC_E2E.serviceClient.clientSecret,
      grant_types: ["client_credentials"],
      redirect_uris: [],
      response_types: [],
    },
  ],
  claims: { openid: ["sub"], profile: ["name", "role", "groups"], email: ["email"] },
  async findAccount(_ctx, id) {
    const claims = accounts.get(id);
    if (!claims) return undefined;
    return { accountId: id, claims: async () => ({ sub: id, ...accounts.get(id) }) };
  },
  // Refresh tokens without offline_access, as Keycloak issues them: the back office re-reads roles with them.
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
  features: {
    devInteractions: { enabled: true },
    rpInitiatedLogout: { enabled: true, logoutSource },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => undefined,
      useGrantedResource: () => false,
      getResourceServerInfo: (_ctx, resource) => {
        if (resource !== OIDC_E2E.apiResource) throw new errors.InvalidTarget();
        return {
          scope: "players:read",
          audience: OIDC_E2E.apiAudience,
          accessTokenFormat: "jwt",
          accessTokenTTL: 300,
          jwt: { sign: { alg: "RS256" } },
        };
      },
    },
  },
  cookies: { keys: ["oidc-e2e-cookie-key-0123456789abcdef"] },
});

/** The test's way to change what the provider says about a user between two reads of the back office. */
provider.use(async (ctx, next) => {
  const match = /^\/test\/accounts\/([\w.-]+)$/.exec(ctx.path);
  if (!match?.[1]) return next();
  if (ctx.method === "DELETE") accounts.delete(match[1]);
  else if (ctx.method === "PUT") {
    let body = "";
    for await (const chunk of ctx.req) body += chunk;
    accounts.set(match[1], JSON.parse(body) as Record<string, unknown>);
  } else return next();
  ctx.status = 204;
});

/** Every ID token the token endpoint has answered the back office's client with (code and refresh grants). */
const backOfficeIdTokens: string[] = [];
provider.use(async (ctx, next) => {
  if (ctx.method === "GET" && ctx.path === "/test/id-tokens") {
    ctx.type = "json";
    ctx.body = JSON.stringify(backOfficeIdTokens);
    return;
  }
  await next();
  const body = ctx.body as { id_token?: unknown } | undefined;
  const client = ctx.oidc?.client?.clientId;
  if (
    ctx.path === "/token" &&
    client === OIDC_E2E.backOffice.clientId &&
    typeof body?.id_token === "string"
  ) {
    backOfficeIdTokens.push(body.id_token);
  }
});

provider.listen(OIDC_E2E.providerPort, "127.0.0.1", () => {
  console.log(`oidc-provider listening at ${OIDC_E2E.issuer}`);
});
