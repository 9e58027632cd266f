import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { sessionSecret } from "./secrets.ts";

/*
 * The identity provider's refresh and access tokens, kept in the session table to re-read a user's roles, are
 * sealed (AES-256-GCM) with a key derived from the session secret: a copy of the table (a backup, a read-only
 * role) does not hand out live credentials for the provider. Each is bound to its session's id, so a sealed value
 * moved to another row does not open.
 */

const VERSION = "v1";
const keys = new Map<string, Buffer>();

function key(): Buffer {
  const secret = sessionSecret();
  let derived = keys.get(secret);
  if (!derived) {
    derived = Buffer.from(hkdfSync("sha256", secret, "", "player-account-read auth-session idp-tokens", 32));
    keys.set(secret, derived);
  }
  return derived;
}

/** `plaintext` sealed for the session `sessionId`. */
export function seal(plaintext: string, sessionId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv).setAAD(Buffer.from(sessionId));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, body, cipher.getAuthTag()]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/** What `seal` sealed for this session, or null when it does not open (another secret, another row, tampered). */
export function unseal(sealed: string, sessionId: string): string | null {
  const [version, iv, body, tag] = sealed.split(".");
  if (version !== VERSION || iv === undefined || body === undefined || tag === undefined) return null;
  try {
    // A full-length tag only: GCM would otherwise check a truncated one.
    const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"), {
      authTagLength: 16,
    })
      .setAAD(Buffer.from(sessionId))
      .setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    return null;
  }
}
