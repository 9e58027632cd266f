import { z } from "zod";
import { rateLimitHeaders, requestIdHeader } from "@/platform/openapi/operation-parts";

/* The response headers and the resume recipe the two streamed exports share (features/<name>/openapi). */

export const exportHeaders = z.object({
  "X-Request-ID": requestIdHeader,
  "X-Total-Count": z.string().meta({
    description:
      "The number of rows (lines) of the whole export under its filters, counted as the response began; on a resumed export (`after`) still the whole export's, not the rest's, like the list's `total`. Rows written while the export runs may or may not appear, so the rows received can differ from it by those.",
    example: "24000",
  }),
  "Content-Encoding": z.literal("gzip").optional().meta({
    description:
      "`gzip` when the request's `Accept-Encoding` takes gzip (`gzip`, `x-gzip` or `*` with a non-zero weight); absent (identity) otherwise. The gzip stream is flushed after every batch, so a transfer cut part-way still decompresses to whole lines.",
  }),
  Vary: z.literal("Accept-Encoding"),
  "Cache-Control": z.literal("no-store, no-transform").meta({
    description: "Not stored; not re-encoded by proxies (the body is compressed once, by the service).",
  }),
  "Content-Disposition": z.string().meta({ description: "`attachment` with a file name." }),
  ...rateLimitHeaders,
});

export const RESUME_RECIPE =
  "Resuming after a cut: keep the whole lines received (up to the last line break; with gzip, decompress what arrived: every batch is flushed), take the last one's `id`, and ask again with the same parameters plus `after=<that id>`; append the answer. The concatenation is exactly one uninterrupted export, row for row, when nothing was written meanwhile (rows written meanwhile may or may not appear, none is repeated or skipped). A resumed export is audited like any other, its `after` among the recorded parameters.";
