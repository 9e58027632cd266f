export const PEER_ADDRESS_HEADER: "x-par-peer-address";
export const MALFORMED_PATH_HEADER: "x-par-malformed-path";
export const CONNECTION_HEADER: "x-par-connection";
export function closeConnection(headers: Headers): boolean;
export function isRequestStampInstalled(): boolean;
export function isRequestStampPreloaded(): boolean;
export function repairPercentEncoding(url: string): string | null;
export function targetPath(target: string): string;
export function installRequestStamp(options?: { preloaded?: boolean }): void;
