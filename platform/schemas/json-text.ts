/**
 * A value already written as JSON text, of the shape `T` (the database wrote it: features/portfolio/data/get-portfolio.ts).
 * A response sends the text as it is (platform/http/json.ts); server rendering parses it into the browser's wire shape
 * (platform/reads/wire-shape.ts). The text must be what `stringifyJson` would write for the same value: canonical
 * numbers, the schema's key order, no whitespace (each producer's test checks it).
 *
 * It may be given as UTF-8 pieces instead, which a response sends one after the other: a large body kept between
 * reads (a portfolio's players) is then neither copied nor re-encoded per answer (docs/performance.md, "Kept
 * books").
 */
export class JsonText<T> {
  /** The shape the text holds; types only. */
  declare readonly shape?: T;
  /** The text as UTF-8 pieces, in order; undefined when given as a string. */
  readonly parts: readonly Uint8Array[] | undefined;
  #text: string | undefined;

  constructor(text: string | readonly Uint8Array[]) {
    if (typeof text === "string") {
      this.#text = text;
      this.parts = undefined;
    } else {
      this.parts = text;
    }
  }

  /** The whole text (decoded from the pieces once, when asked). */
  get text(): string {
    this.#text ??= decodeParts(this.parts ?? []);
    return this.#text;
  }
}

function decodeParts(parts: readonly Uint8Array[]): string {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let text = "";
  for (const [i, part] of parts.entries()) text += decoder.decode(part, { stream: i < parts.length - 1 });
  return text;
}
