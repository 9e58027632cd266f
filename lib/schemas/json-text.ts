/**
 * A value already written as JSON text, of the shape `T` (the database wrote it: lib/players/get-portfolio.ts).
 * A response sends the text as it is (lib/http/json.ts); server rendering parses it into the browser's wire shape
 * (lib/reads/wire-shape.ts). The text must be what `stringifyJson` would write for the same value: canonical
 * numbers, the schema's key order, no whitespace (each producer's test checks it).
 */
export class JsonText<T> {
  /** The shape the text holds; types only. */
  declare readonly shape?: T;

  constructor(readonly text: string) {}
}
