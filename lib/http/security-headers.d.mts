export interface HeaderRule {
  source: string;
  has?: { type: "header"; key: string; value: string }[];
  headers: { key: string; value: string }[];
}
export function pageCsp(options: { dev: boolean }): string;
export const API_CSP: string;
export const DOCS_CSP: string;
export const PAGES_SOURCE: string;
export const API_SOURCE: string;
export const ALL_SOURCE: string;
export const COMMON_SECURITY_HEADERS: { key: string; value: string }[];
export const HSTS_HEADER: { key: string; value: string };
export function securityHeaderRules(options: { dev: boolean }): HeaderRule[];
