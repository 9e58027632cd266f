import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./document.ts";
import { addSampledExamples, type OpenApiLike } from "./sampled-examples.ts";

type Media = { schema?: unknown; example?: unknown; examples?: Record<string, { value?: unknown }> };
type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, Media> }> }>>;
};

/** Every response body of every operation, as `METHOD path status media-type`. */
function bodies(doc: Doc): [string, Media][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) =>
      Object.entries(op.responses).flatMap(([status, response]) =>
        Object.entries(response.content ?? {}).map(
          ([type, media]) => [`${method.toUpperCase()} ${path} ${status} ${type}`, media] as [string, Media],
        ),
      ),
    ),
  );
}

const examplesOf = (media: Media): unknown[] =>
  media.example !== undefined ? [media.example] : Object.values(media.examples ?? {}).map((e) => e.value);

/** What lacks an example: a response (problem responses included) of an operation, by name. */
function withoutExamples(doc: Doc): string[] {
  return bodies(doc)
    .filter(([, media]) => examplesOf(media).length === 0)
    .map(([name]) => name);
}

describe("response examples", () => {
  const doc = buildOpenApiDocument() as unknown as Doc;

  it("are on every response of every operation, problem responses included", () => {
    expect(bodies(doc).length).toBeGreaterThan(100);
    expect(withoutExamples(doc)).toEqual([]);
  });

  it("match their schemas (the document's own, as JSON Schema 2020-12)", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat("date-time", true).addFormat("date", true).addFormat("email", true);
    ajv.addFormat("decimal", { type: "number", validate: () => true });
    ajv.addSchema({ ...doc, $id: "openapi" });
    const failures: string[] = [];
    for (const [name, media] of bodies(doc)) {
      const [method, path, status, type] = name.split(" ") as [string, string, string, string];
      const pointer = ["paths", path, method.toLowerCase(), "responses", status, "content", type, "schema"]
        .map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1"))
        .join("/");
      const validate = ajv.compile({ $ref: `openapi#/${pointer}` });
      for (const example of examplesOf(media)) {
        if (!validate(example)) failures.push(`${name}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("the check names an operation added without one (a body the sampler does not fill)", () => {
    const added = structuredClone(doc);
    added.paths["/changes"] = {
      get: { responses: { "200": { content: { "application/x-ndjson": { schema: { type: "string" } } } } } },
    };
    addSampledExamples(added as OpenApiLike);
    expect(withoutExamples(added)).toEqual(["GET /changes 200 application/x-ndjson"]);
  });

  it("problem examples carry the registry's absolute type URI", () => {
    const media =
      doc.paths["/players/{playerId}"]?.get?.responses["404"]?.content?.["application/problem+json"];
    expect(media && examplesOf(media)).toEqual([
      expect.objectContaining({
        status: 404,
        type: expect.stringMatching(/^https?:\/\/[^/]+\/problems\/not-found$/),
      }),
    ]);
  });
});
