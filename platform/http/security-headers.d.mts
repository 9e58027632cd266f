export type HeaderList = readonly (readonly [string, string])[];
export function pageCsp(options: { dev: boolean }): string;
export const API_CSP: string;
export const DOCS_CSP: string;
export const COMMON_SECURITY_HEADERS: { key: string; value: string }[];
export const HSTS_HEADER: { key: string; value: string };
export function securityHeadersFor(pathname: string, options: { https: boolean; dev: boolean }): HeaderList;
