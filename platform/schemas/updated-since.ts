import { z } from "zod";
import { parseDateBound } from "./date-bound.ts";

/** A full ISO 8601 instant: date, time and an offset (Z or ±hh:mm): a syncer's bound is never a local time. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * A full instant with an offset, at most millisecond precision, as a Date; anything else is an issue saying
 * `message`. Shared by `updated_since` and the export's `after_date`.
 */
export function offsetInstant(message: string) {
  return z.string().transform((text, ctx): Date => {
    const bound = INSTANT.test(text) ? parseDateBound(text, "from") : null;
    if (!bound) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return bound.at;
  });
}

/**
 * `updated_since`: keep the records whose `updated_at` is at or after this instant. Only a full instant with an
 * offset is taken (a date alone or a time without an offset would be read in some time zone, and a syncer that
 * misreads its bound skips changes); at most millisecond precision, as stored.
 */
export const updatedSinceParam = offsetInstant(
  "must be an ISO 8601 instant with an offset and at most millisecond precision, e.g. 2026-11-20T12:00:00.000Z",
)
  .optional()
  .meta({
    override: { type: "string", format: "date-time" },
    description:
      "An addition to the spec: only records whose `updated_at` is at or after this instant (ISO 8601 with `Z` or an offset, at most millisecond precision). A time stamp is not a safe sync position on its own: a change committed late can carry an earlier `updated_at`. Use it with the change feed (`GET /changes`): a `player.transactions_changed` entry is followed by re-reading with `updated_since` set to its `changed_at`.",
    param: { example: "2026-11-20T12:00:00.000Z" },
  });
