import "server-only";
import type { JWTPayload } from "jose";

const MAX_NAME_LENGTH = 200;

/**
 * The person behind a verified token, in words, for the audit trail: `name` (the back office's tokens carry
 * it), else `preferred_username` (common in identity providers' tokens); null when the token names nobody
 * (a client, the demo fallback). Capped so a hostile claim cannot bloat every record.
 */
export function subjectNameFromClaims(claims: JWTPayload | null): string | null {
  for (const key of ["name", "preferred_username"] as const) {
    const value = claims?.[key];
    if (typeof value === "string" && value.trim()) return value.trim().slice(0, MAX_NAME_LENGTH);
  }
  return null;
}
