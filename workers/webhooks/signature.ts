import { createHmac, randomBytes } from "node:crypto";

/*
 * Standard Webhooks signing (https://www.standardwebhooks.com, docs/webhooks.md): the secret is `whsec_` + base64
 * of random bytes; the signature is `v1,` + base64(HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")),
 * where key is the secret's base64 part decoded. Sent as the headers webhook-id, webhook-timestamp (Unix
 * seconds) and webhook-signature. Not the standardwebhooks package (1.3.0): for the one HMAC this needs, it brings
 * ~870 lines (its own pure-JS SHA-256 and base64, ~10× slower than node:crypto) and no secret generator.
 */

export const SECRET_PREFIX = "whsec_";

/** A new endpoint secret: 32 random bytes from the CSPRNG. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

const secretKey = (secret: string) =>
  Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");

export interface SignOptions {
  secret: string;
  id: string;
  /** Unix seconds. */
  timestamp: number;
  body: string;
}

/** The webhook-signature header's value. */
export function signWebhook({ secret, id, timestamp, body }: SignOptions): string {
  const mac = createHmac("sha256", secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

export interface HeaderOptions extends SignOptions {
  /**
   * During a rotation's overlap, the previous secret: both signatures are sent, space-separated, as Standard
   * Webhooks allows (a receiver accepts if any entry matches its secret, old or new).
   */
  previousSecret?: string | null;
}

/** The three headers of a signed delivery. */
export function webhookHeaders(options: HeaderOptions): Record<string, string> {
  const { previousSecret, ...sign } = options;
  const signatures = [signWebhook(sign)];
  if (previousSecret) signatures.push(signWebhook({ ...sign, secret: previousSecret }));
  return {
    "webhook-id": options.id,
    "webhook-timestamp": String(options.timestamp),
    "webhook-signature": signatures.join(" "),
  };
}
