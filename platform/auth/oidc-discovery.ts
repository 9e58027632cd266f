/** The parts of an OpenID provider's discovery document this app uses. */
export interface OidcMetadata {
  issuer: string;
  token_endpoint?: string;
  userinfo_endpoint?: string;
  end_session_endpoint?: string;
}

const ENDPOINTS = ["token_endpoint", "userinfo_endpoint", "end_session_endpoint"] as const;

let discovery: { issuer: string; metadata: Promise<OidcMetadata> } | undefined;

async function fetchMetadata(issuer: string): Promise<OidcMetadata> {
  const res = await fetch(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`, {
    signal: AbortSignal.timeout(5_000),
  });
  if (!res.ok) throw new Error(`the provider's discovery document answered ${res.status}`);
  const body = (await res.json()) as Record<string, unknown>;
  if (typeof body.issuer !== "string") throw new Error("the provider's discovery document names no issuer");
  const metadata: OidcMetadata = { issuer: body.issuer };
  // Only absolute URLs: anything else is treated as absent.
  for (const name of ENDPOINTS) {
    const value = body[name];
    if (typeof value === "string" && URL.canParse(value)) metadata[name] = value;
  }
  return metadata;
}

/** The provider's discovery document (read once per process; a failed read is retried at the next call). */
export function oidcMetadata(issuer: string): Promise<OidcMetadata> {
  if (discovery?.issuer !== issuer) {
    const metadata = fetchMetadata(issuer).catch((error: unknown) => {
      discovery = undefined;
      throw error;
    });
    discovery = { issuer, metadata };
  }
  return discovery.metadata;
}
