/*
 * Enums that grow within v1 (docs/versioning.md: a new value is an addition). They keep `enum`, so generators
 * still type the known values (openapi-typescript: a union of literals a client can switch on exhaustively), and
 * carry `x-extensible-enum` (Zalando's guideline, read by several generators and linters) with the same values:
 * the mark that the list is open. `anyOf: [enum, string]` was weighed and left: openapi-typescript turns it into
 * `string`, which loses the known values. How a client treats a value it does not know is said in the
 * description, as generators honour no mark for it.
 */

/** Each open enum of the document (a component schema id) and what a client does with a value it does not know. */
export const EXTENSIBLE_ENUMS: Readonly<Record<string, string>> = {
  ChangeKind:
    "**Extensible**: kinds may be added within v1 (`x-extensible-enum`). A client must not fail on a kind it does not know: treat it as a change to what the entry names (re-read the player in `player_id`, or everything when it is null) and keep following `next`.",
};

/**
 * The webhooks' event types are the document's `webhooks` entries (each body's `type` a constant), not an enum
 * component: their rule goes in the Webhooks tag.
 */
export const WEBHOOK_TYPES_OPEN =
  "**Event types may be added within v1**: an endpoint is sent only the types it subscribed to, so a new type reaches nobody until subscribed; a receiver that gets a type it does not know answers 2xx and ignores the body (it must not fail or retry on it).";

interface EnumSchema {
  enum?: unknown[];
  description?: string;
  "x-extensible-enum"?: unknown[];
}

/** Marks the document's open enums (in place): `x-extensible-enum` beside `enum`, and the rule for unknown values. */
export function markExtensibleEnums<D extends { components?: { schemas?: object } }>(document: D): D {
  const schemas = (document.components?.schemas ?? {}) as Record<string, EnumSchema>;
  for (const [id, rule] of Object.entries(EXTENSIBLE_ENUMS)) {
    const schema = schemas[id];
    if (!schema?.enum) throw new Error(`The open enum ${id} is not an enum component of the document.`);
    schema["x-extensible-enum"] = [...schema.enum];
    schema.description = schema.description ? `${schema.description}\n\n${rule}` : rule;
  }
  return document;
}
