import type { z } from "zod";
import { invalidParameters } from "@/platform/problems/problem";
import type { ProblemFieldError } from "@/platform/schemas/common";

type SchemaDef = {
  type: string;
  shape?: Record<string, { _zod: { def: SchemaDef } }>;
  innerType?: { _zod: { def: SchemaDef } };
  in?: { _zod: { def: SchemaDef } };
};

/** Wrappers that do not change what a parameter accepts from the query string. */
const TRANSPARENT = new Set([
  "optional",
  "nullable",
  "default",
  "prefault",
  "readonly",
  "catch",
  "nonoptional",
]);

function takesSeveralValues(def: SchemaDef): boolean {
  if (def.type === "array") return true;
  const inner = TRANSPARENT.has(def.type) ? def.innerType : def.type === "pipe" ? def.in : undefined;
  return inner ? takesSeveralValues(inner._zod.def) : false;
}

const arrayParamsCache = new WeakMap<z.ZodType, readonly string[]>();

/**
 * The parameters of a query schema that take several values: those declared as arrays. Read from the
 * schema itself, so a new list parameter needs no second list to keep in step.
 */
export function arrayParamsOf(schema: z.ZodType): readonly string[] {
  let names = arrayParamsCache.get(schema);
  if (!names) {
    const shape = (schema._zod.def as SchemaDef).shape ?? {};
    names = Object.keys(shape).filter((name) => {
      const field = shape[name];
      return field ? takesSeveralValues(field._zod.def) : false;
    });
    arrayParamsCache.set(schema, names);
  }
  return names;
}

/**
 * URLSearchParams → plain object for a strict zod schema.
 * List parameters accept repeated keys, comma-separated values and the `name[]` form; every other
 * parameter must appear once. Unknown parameters are rejected by the schema (a typo never silently
 * widens a filter).
 */
export function searchParamsToObject(
  params: URLSearchParams,
  arrayParams: readonly string[],
): { value: Record<string, string | string[]>; errors: ProblemFieldError[] } {
  // No prototype: a key such as `__proto__` becomes an own property that the strict schema rejects,
  // instead of silently vanishing into the prototype chain.
  const value: Record<string, string | string[]> = Object.create(null);
  const errors: ProblemFieldError[] = [];
  const seen = new Set<string>();
  for (const [rawKey, raw] of params) {
    const name = rawKey.endsWith("[]") ? rawKey.slice(0, -2) : rawKey;
    if (arrayParams.includes(name)) {
      const list = (value[name] as string[] | undefined) ?? [];
      list.push(...raw.split(",").map((v) => v.trim()));
      value[name] = list;
    } else if (seen.has(name)) {
      if (!errors.some((e) => e.name === name))
        errors.push({ name, in: "query", detail: "must be given only once" });
    } else {
      value[name] = raw;
    }
    seen.add(name);
  }
  return { value, errors };
}

export function zodIssuesToFieldErrors(
  issues: z.core.$ZodIssue[],
  location: ProblemFieldError["in"],
): ProblemFieldError[] {
  return issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return { name: issue.keys.join(", "), in: location, detail: "is not a known parameter" };
    }
    const [name, index] = issue.path;
    const detail =
      issue.code === "invalid_value" && "values" in issue
        ? `must be one of: ${issue.values.join(", ")}`
        : issue.code === "invalid_type" && issue.expected === "array"
          ? "must be a list"
          : issue.message;
    return {
      name: String(name ?? "query"),
      in: location,
      detail: typeof index === "number" ? `value ${index + 1}: ${detail}` : detail,
    };
  });
}

/** Parses a request's query string with a strict schema; throws a 400 problem naming each bad parameter. */
export function parseQuery<S extends z.ZodType>(schema: S, params: URLSearchParams): z.output<S> {
  const { value, errors } = searchParamsToObject(params, arrayParamsOf(schema));
  const result = schema.safeParse(value);
  if (result.success && errors.length === 0) return result.data;
  const all = [...errors, ...(result.success ? [] : zodIssuesToFieldErrors(result.error.issues, "query"))];
  // unrecognized_keys lists several keys in one issue; report each as its own entry.
  const expanded = all.flatMap((e) =>
    e.detail === "is not a known parameter" ? e.name.split(", ").map((name) => ({ ...e, name })) : [e],
  );
  if (expanded.length > 0 || !result.success) throw invalidParameters(expanded);
  return result.data;
}

export function parsePathParam<S extends z.ZodType>(schema: S, name: string, raw: string): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) {
    throw invalidParameters(zodIssuesToFieldErrors(result.error.issues, "path").map((e) => ({ ...e, name })));
  }
  return result.data;
}
