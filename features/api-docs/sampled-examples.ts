/*
 * Response examples for every operation of the document. A JSON body's example is built from its schema: each
 * field's own example (`examples` in the zod schemas' meta), else its const, first enum value, a first branch of
 * a union, a typical value of its format; arrays get one item. Problem responses carry the registry's examples
 * (operation-parts.ts). features/api-docs/sampled-examples.test.ts fails when a response has no example or one that does not
 * match its schema, so an operation added without one (say, a new media type) is caught.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  examples?: unknown[];
  example?: unknown;
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  format?: string;
  minimum?: number;
  minItems?: number;
};

const FORMAT_EXAMPLES: Record<string, unknown> = {
  "date-time": "2026-11-20T12:00:00.000Z",
  date: "2026-11-20",
  email: "jane.doe@example.com",
  uuid: "0b7d6f0e-6c1a-4a53-9d5e-2f1f2a0c3b4d",
  uri: "https://players.example.com/",
  decimal: 1250.5,
};

export type SchemaComponents = Record<string, Schema>;

/** An example value of a JSON Schema (2020-12, as OpenAPI 3.1 has it), resolving the document's components. */
export function sampleSchema(schema: Schema, components: SchemaComponents, depth = 0): unknown {
  if (depth > 12) return null;
  if (schema.$ref) {
    const target = components[schema.$ref.replace("#/components/schemas/", "")];
    return target ? sampleSchema(target, components, depth + 1) : null;
  }
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) {
    const branch = branches.find((b) => b.type !== "null") ?? branches[0];
    return branch ? sampleSchema(branch, components, depth + 1) : null;
  }
  if (schema.allOf?.length) {
    return Object.assign({}, ...schema.allOf.map((s) => sampleSchema(s, components, depth + 1)));
  }
  return sampleByType(schema, components, depth);
}

function sampleByType(schema: Schema, components: SchemaComponents, depth: number): unknown {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (schema.format && schema.format in FORMAT_EXAMPLES) return FORMAT_EXAMPLES[schema.format];
  switch (type) {
    case "object": {
      const entries = Object.entries(schema.properties ?? {});
      return Object.fromEntries(entries.map(([k, s]) => [k, sampleSchema(s, components, depth + 1)]));
    }
    case "array": {
      const item = schema.items ? sampleSchema(schema.items, components, depth + 1) : null;
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
    }
    case "integer":
    case "number":
      return Math.max(schema.minimum ?? 0, 0) || (schema.minimum ?? 0);
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return "string";
  }
}

type MediaType = { schema?: Schema; example?: unknown; examples?: Record<string, unknown> };
type Operation = { responses?: Record<string, { content?: Record<string, MediaType> }> };
export type OpenApiLike = {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: SchemaComponents };
};

/** Gives every JSON response without an example one sampled from its schema; returns the document. */
export function addSampledExamples<T extends OpenApiLike>(document: T): T {
  const components = document.components?.schemas ?? {};
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const response of Object.values(operation.responses ?? {})) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (media.example !== undefined || media.examples || !media.schema) continue;
          if (type === "application/json") media.example = sampleSchema(media.schema, components);
        }
      }
    }
  }
  return document;
}
