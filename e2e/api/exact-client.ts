import { isLosslessNumber, parse } from "lossless-json";
import createClient from "openapi-fetch";
import type { paths } from "./generated/player-api.ts";

/*
 * The typed-client recipe's second half (docs/integrations.md, Exact money): openapi-fetch over the generated
 * types, each body read as text (`parseAs: "text"`) and parsed with lossless-json, so the fields the document
 * marks `format: decimal` keep every digit as a string (their generated type), every other number a number.
 * JSON.parse cannot do it on Node 20: its reviver sees the double, not the source text.
 */

export function createExactClient(baseUrl: string, headers: Record<string, string>) {
  return createClient<paths>({ baseUrl: `${baseUrl}/api/v1`, headers });
}

/** Parses a JSON body keeping `decimalFields` as digit strings; other numbers become JS numbers. */
export function parseExact<T>(text: string, decimalFields: ReadonlySet<string>): T {
  return parse(text, (key, value) => {
    if (!isLosslessNumber(value)) return value;
    return decimalFields.has(key) ? value.toString() : value.valueOf();
  }) as T;
}
