import { SIGN_IN_REASON_EXPIRED, signInPath } from "@/platform/auth/paths";
import { type DecimalTree, parseWire } from "./wire-codec.ts";

export interface ApiRequestErrorOptions {
  /** The HTTP status; 0 when the server could not be reached. */
  status: number;
  title: string;
  detail: string;
  /** The id to quote to support: the server's, else the one sent. */
  requestId: string;
  /** Each bad parameter the problem named; default none. */
  errors?: { name: string; detail: string }[] | undefined;
}

/** A failed API call, with what the problem+json body said and the request id to quote. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly requestId: string;
  readonly errors: { name: string; detail: string }[];

  constructor(options: ApiRequestErrorOptions) {
    super(options.detail);
    this.name = "ApiRequestError";
    this.status = options.status;
    this.title = options.title;
    this.detail = options.detail;
    this.requestId = options.requestId;
    this.errors = options.errors ?? [];
  }
}

interface Credentials {
  token: string;
  sessionId: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

const RENEW_BEFORE_MS = 30_000;
let credentials: Credentials | null = null;
let pending: Promise<Credentials> | null = null;

/** Forget the cached token (after signing in or out). */
export function clearApiCredentials(): void {
  credentials = null;
  pending = null;
}

/** The session ended while the page was open: sign in again, told why, and come back to this very view. */
function goToSignIn(): void {
  const back = `${window.location.pathname}${window.location.search}`;
  window.location.assign(signInPath(back, SIGN_IN_REASON_EXPIRED));
}

async function fetchCredentials(): Promise<Credentials> {
  const requestId = crypto.randomUUID();
  const response = await fetch("/api/session/token", {
    cache: "no-store",
    credentials: "same-origin",
    headers: { "X-Request-ID": requestId },
  });
  if (response.status === 401) {
    goToSignIn();
    throw new ApiRequestError({
      status: 401,
      title: "Signed out",
      detail: "Your session has ended; sign in again.",
      requestId,
    });
  }
  if (!response.ok) throw await toError(response, requestId);
  const body = (await response.json()) as { access_token: string; session_id: string; expires_at: number };
  return { token: body.access_token, sessionId: body.session_id, expiresAt: body.expires_at * 1000 };
}

/** The signed-in user's API credentials, renewed shortly before the token expires. */
async function getCredentials(renew = false): Promise<Credentials> {
  if (!renew && credentials && credentials.expiresAt - RENEW_BEFORE_MS > Date.now()) return credentials;
  pending ??= fetchCredentials().finally(() => {
    pending = null;
  });
  credentials = await pending;
  return credentials;
}

async function toError(response: Response, sentRequestId: string): Promise<ApiRequestError> {
  const requestId = response.headers.get("x-request-id") ?? sentRequestId;
  try {
    const problem = (await response.json()) as {
      title?: string;
      detail?: string;
      request_id?: string;
      errors?: { name: string; detail: string }[];
    };
    return new ApiRequestError({
      status: response.status,
      title: problem.title ?? response.statusText,
      detail: problem.detail ?? `The server answered ${response.status}.`,
      requestId: problem.request_id ?? requestId,
      errors: problem.errors ?? [],
    });
  } catch {
    return new ApiRequestError({
      status: response.status,
      title: response.statusText || "Request failed",
      detail: `The server answered ${response.status}.`,
      requestId,
    });
  }
}

/**
 * fetch() as the signed-in user: `Authorization: Bearer <app-issued token>`, `X-Session-ID` (the sign-in
 * session) and a fresh `X-Request-ID`. A 401 renews the token once and retries. Returns the raw Response
 * (network failures become an ApiRequestError with status 0).
 */
export async function apiFetch(url: string, init: RequestInit = {}): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const { token, sessionId } = await getCredentials(attempt > 0);
    const requestId = crypto.randomUUID();
    const headers = new Headers(init.headers);
    headers.set("Accept", headers.get("Accept") ?? "application/json");
    headers.set("Authorization", `Bearer ${token}`);
    headers.set("X-Session-ID", sessionId);
    headers.set("X-Request-ID", requestId);
    let response: Response;
    try {
      response = await fetch(url, { cache: "no-store", ...init, headers });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new ApiRequestError({
        status: 0,
        title: "Network error",
        detail: "The server could not be reached.",
        requestId,
      });
    }
    if (response.status === 401 && attempt === 0) continue;
    return response;
  }
}

/**
 * GET /api/v1{path} as the signed-in user (see apiFetch), parsed with exact decimals where `decimals` (the
 * response's entry in platform/client/wire-decimals.ts) says; errors throw.
 */
export async function apiGet<T>(
  path: string,
  decimals: DecimalTree,
  query?: URLSearchParams,
  signal?: AbortSignal,
): Promise<T> {
  return readApiResponse<T>(await apiFetch(apiUrl(path, query), { signal }), decimals);
}

/** `/api/v1{path}?{query}`: the URL apiGet asks for (the server's first view asks for the same). */
export function apiUrl(path: string, query?: URLSearchParams): string {
  return `/api/v1${path}${query && query.size > 0 ? `?${query}` : ""}`;
}

/** An API answer's body, parsed with exact decimals; a problem+json answer throws an ApiRequestError. */
export async function readApiResponse<T>(response: Response, decimals: DecimalTree): Promise<T> {
  if (!response.ok) throw await toError(response, response.headers.get("x-request-id") ?? "");
  return parseWire(await response.text(), decimals) as T;
}

/**
 * Downloads GET /api/v1{path} as the signed-in user and hands it to the browser as a file (the API needs the
 * bearer token, so a plain link cannot do it). Returns the file name; errors throw like apiGet's.
 */
export async function apiDownload(
  path: string,
  query: URLSearchParams,
  fallbackName: string,
): Promise<string> {
  const response = await apiFetch(`/api/v1${path}?${query}`, { headers: { Accept: "*/*" } });
  if (!response.ok) throw await toError(response, response.headers.get("x-request-id") ?? "");
  const disposition = response.headers.get("content-disposition") ?? "";
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the blob goes away.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return fileName;
}
