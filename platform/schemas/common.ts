import "zod-openapi";
import { z } from "zod";
import { ExactNumber } from "@/platform/schemas/exact-number";

/**
 * Money and other exact decimals: a JSON number whose digits are the stored numeric(20,8) value. `format: decimal`
 * marks it exact for generated clients; docs/integrations.md has the recipe that keeps the digits.
 */
export const exactNumberSchema = z.instanceof(ExactNumber).meta({
  override: { type: "number", format: "decimal" },
  description:
    "Exact decimal (PostgreSQL numeric(20,8)), written as a JSON number with the stored digits: up to 12 integer and 8 fractional digits (20 in all), trailing zeros dropped. A binary double keeps only 15–17 significant digits, so `JSON.parse` (and any client that decodes numbers to doubles) rounds large amounts: parse the body with a lossless JSON parser (e.g. `lossless-json`'s `parse` with a reviver turning these fields into decimal strings or a decimal library's values; Python's `json.loads(parse_float=Decimal)`; Jackson's `USE_BIG_DECIMAL_FOR_FLOATS`). See docs/integrations.md, Exact money.",
  examples: [1250.5],
});

export const dateTimeSchema = z.iso.datetime().meta({
  description: "UTC instant, ISO 8601 with milliseconds and a Z suffix.",
  examples: ["2026-11-20T12:00:00.000Z"],
});

export const problemFieldErrorSchema = z
  .object({
    name: z
      .string()
      .meta({ description: "The offending parameter or header, e.g. `limit` or `X-Session-ID`." }),
    in: z.enum(["query", "path", "header"]),
    detail: z.string(),
  })
  .meta({ id: "ProblemFieldError" });

export const problemSchema = z
  .object({
    type: z.string().meta({ description: "URI reference naming the problem type." }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().optional(),
    request_id: z
      .string()
      .meta({ description: "Also sent as the X-Request-ID header; quote it when reporting an issue." }),
    errors: z.array(problemFieldErrorSchema).optional().meta({
      description: "For invalid requests: one entry per offending parameter or header.",
    }),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details (media type application/problem+json)." });

export type Problem = z.infer<typeof problemSchema>;
export type ProblemFieldError = z.infer<typeof problemFieldErrorSchema>;

/** Text that can safely reach PostgreSQL: no control characters (NUL would be a driver error). */
export const safeText = (max: number) =>
  z
    .string()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .regex(/^[^\p{Cc}]*$/u, "must not contain control characters");

/** A non-negative whole number written in decimal digits only (no signs, exponents or spaces). */
export const wholeNumberParam = (opts: { min: number; max: number; default: number }) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform((s) => Number(s))
    .pipe(
      z.number().min(opts.min, `must be at least ${opts.min}`).max(opts.max, `must be at most ${opts.max}`),
    )
    .optional()
    .transform((n) => n ?? opts.default);

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;
export const MAX_OFFSET = 1_000_000_000;

export const limitParam = wholeNumberParam({ min: 1, max: MAX_LIMIT, default: DEFAULT_LIMIT }).meta({
  description: `Page size: 1 to ${MAX_LIMIT}.`,
  param: { example: DEFAULT_LIMIT },
  override: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
});

export const offsetParam = wholeNumberParam({ min: 0, max: MAX_OFFSET, default: 0 }).meta({
  description: "Number of results to skip. An offset past the end returns an empty page with the true total.",
  override: { type: "integer", minimum: 0, maximum: MAX_OFFSET, default: 0 },
});

export const pageEnvelope = {
  total: z.number().int().meta({ description: "Exact count of all matching results." }),
  limit: z.number().int().meta({ description: "Page size applied." }),
  offset: z.number().int().meta({ description: "Number of results skipped." }),
  has_more: z
    .boolean()
    .meta({ description: "`offset + returned < total`: whether results remain beyond this page." }),
};

/** A player's id: every player-scoped path and several queries take it. */
export const playerIdSchema = safeText(64).meta({
  description: "Player identifier (1–64 characters, no control characters).",
  param: { example: "P000007" },
});
