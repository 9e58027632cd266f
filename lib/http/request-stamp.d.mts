import type { Socket } from "node:net";

export const PEER_ADDRESS_HEADER: "x-par-peer-address";
export const MALFORMED_PATH_HEADER: "x-par-malformed-path";
export const CONNECTION_HEADER: "x-par-connection";
export function closeConnection(headers: Headers): boolean;
export function isRequestStampInstalled(): boolean;
export function isRequestStampPreloaded(): boolean;
export function repairPercentEncoding(url: string): string | null;
export function targetPath(target: string): string;
export interface StampedRequest {
  url?: string;
  headers: Record<string, unknown>;
}
export interface StampedResponse {
  setHeader(name: string, value: string): unknown;
}
export function stampRequest(request: StampedRequest, response: StampedResponse, socket: Socket): void;
export function installRequestStamp(options?: { preloaded?: boolean }): void;
