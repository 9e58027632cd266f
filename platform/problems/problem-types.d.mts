export type ProblemSlug =
  | "invalid-parameters"
  | "unauthorized"
  | "insufficient-scope"
  | "forbidden"
  | "not-found"
  | "method-not-allowed"
  | "feed-gone"
  | "content-too-large"
  | "misdirected-request"
  | "rate-limited"
  | "too-many-exports"
  | "internal-error"
  | "service-unavailable";
export interface ProblemTypeEntry {
  slug: ProblemSlug;
  title: string;
  status: number;
  /** Whether the same request can succeed later (after `Retry-After` where sent). */
  retryable: boolean;
  /** When it is answered (Markdown). */
  description: string;
  /** What a client should do (Markdown). */
  action: string;
  /** A typical `detail`, for examples. */
  example: string;
}
export const PROBLEM_TYPE_LIST: readonly ProblemTypeEntry[];
export function problemTypeEntry(slug: string): ProblemTypeEntry;
export function publicOriginOf(env: Record<string, string | undefined>): string;
export function problemTypeUri(slug: ProblemSlug): string;
export function resetProblemOrigin(): void;
