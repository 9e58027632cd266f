import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";

/*
 * The OpenAPI document as the validator of response bodies, for the in-process route tests
 * (test/support/route-test-kit.ts: the document the code builds) and the HTTP tests (e2e/api/helpers.ts:
 * the document the server serves). OpenAPI 3.1 schemas are JSON Schema 2020-12; the document is added
 * whole under the id "openapi", so its own "#/components/…" references resolve inside it.
 */

type Document = { paths?: Record<string, { get?: { responses?: Record<string, unknown> } }> };

export interface OpenApiValidator {
  /** The document's schema for an operation's response (path as in the document, e.g. /players/{playerId}). */
  response(path: string, status?: string, mediaType?: string): ValidateFunction;
  /** The Problem schema (RFC 9457 bodies). */
  problem(): ValidateFunction;
}

const pointerSegment = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

export function createOpenApiValidator(document: object): OpenApiValidator {
  // strict: false, since the document's other keywords (description, example, …) are not schema keywords.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat("date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i);
  ajv.addFormat("email", /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
  // Exact decimals (money): a JSON number whose digits the document promises; the type check is the schema's.
  ajv.addFormat("decimal", { type: "number", validate: () => true });
  ajv.addSchema({ ...document, $id: "openapi" });
  const doc = document as Document;
  const compiled = new Map<string, ValidateFunction>();

  return {
    response(path, status = "200", mediaType = "application/json") {
      const key = `${path} ${status} ${mediaType}`;
      const cached = compiled.get(key);
      if (cached) return cached;
      const response = doc.paths?.[path]?.get?.responses?.[status] as
        | { content?: Record<string, { schema?: unknown }> }
        | undefined;
      if (!response?.content?.[mediaType]?.schema) throw new Error(`the document does not describe ${key}`);
      const pointer = `openapi#/paths/${pointerSegment(path)}/get/responses/${status}/content/${pointerSegment(mediaType)}/schema`;
      const validate = ajv.compile({ $ref: pointer });
      compiled.set(key, validate);
      return validate;
    },
    problem() {
      const validate = ajv.getSchema("openapi#/components/schemas/Problem");
      if (!validate) throw new Error("the document has no Problem schema");
      return validate;
    },
  };
}

/** A validator's errors as short lines (empty when the body is valid). */
export function validationErrors(validate: ValidateFunction, body: unknown): string[] {
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
