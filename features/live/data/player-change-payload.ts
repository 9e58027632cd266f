import { z } from "zod";
import { playerIdSchema } from "@/platform/schemas/common";

/**
 * The NOTIFY channel the ingest consumer signals on after each committed batch (issue 24's contract): the payload
 * is a JSON array of the player ids the batch changed, e.g. `["P000007","P000012"]`, at most ~7,000 bytes (a
 * batch touching more players sends several notifications).
 */
export const PLAYER_CHANGES_CHANNEL = "player_changes";

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; the contract keeps well under it. */
export const MAX_PAYLOAD_BYTES = 8_000;

const payloadSchema = z.array(playerIdSchema).max(2_000);

/**
 * The distinct player ids a notification names, or null when the payload is not the contract's shape (not JSON,
 * not an array, an element that is not a player id, oversized). A bad payload is dropped whole: a half-read list
 * would nudge some pages and silently skip others.
 */
export function parsePlayerChangePayload(payload: string | undefined): string[] | null {
  if (!payload || payload.length > MAX_PAYLOAD_BYTES) return null;
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  const parsed = payloadSchema.safeParse(value);
  if (!parsed.success) return null;
  return [...new Set(parsed.data)];
}
