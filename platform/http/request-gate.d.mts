import type { IncomingMessage, Server } from "node:http";
import type { TrustedProxies } from "./trusted-proxies.mjs";

export const BODY_LIMIT: number;
export const DEV_TOOLS_BODY_LIMIT: number;
export const LOOPBACK_HOST_NAMES: readonly string[];
export interface ServerSettings {
  dev: boolean;
  trustedProxies: TrustedProxies;
  demoHosts: ReadonlySet<string> | null;
}
export interface Refusal {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors: { name: string; in: "header"; detail: string }[];
}
export function readServerSettings(env: Record<string, string | undefined>): ServerSettings;
export function serverSettings(): ServerSettings;
export function resetServerSettings(): void;
export function hostName(host: string | undefined): string;
export function bodyLimit(method: string | undefined, url: string | undefined, dev: boolean): number;
export function refusalOf(request: IncomingMessage): Refusal | null;
export function gateRequests(server: Server): void;
