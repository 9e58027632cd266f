import type { ExactNumber } from "@/platform/schemas/exact-number";

/**
 * A response type as the browser sees it: exact decimals arrive as strings of digits (platform/client/wire-codec.ts,
 * by the places platform/client/wire-decimals.ts derives from the same schemas).
 */
export type Wire<T> = T extends ExactNumber
  ? string
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;
