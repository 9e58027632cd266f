import type { InfiniteData } from "@tanstack/react-query";
// nuqs/server: the same parsers, importable from server code too (the page's first view reads features/<name>/client).
import { parseAsBoolean, parseAsString, parseAsStringLiteral } from "nuqs/server";
import type { AuditOperation } from "@/features/audit/schema/audit";
import { dayBounds, type TimeZoneChoice } from "@/platform/format/days";
import { AUDIT_OPERATIONS } from "@/platform/schemas/enums";
import { ApiRequestError } from "../../../platform/client/api-client.ts";
import type { AuditEventData, AuditListData, AuditLogData } from "./queries.ts";

/** Which part of a player's audit trail to read; the cursor is the infinite query's page param. */
export interface AuditTrailFilter {
  operations?: AuditOperation[];
  limit?: number;
}

/** The audit operation's query string: `limit`, `operation` (comma-separated) and `cursor`. */
export function auditTrailSearchParams(
  filter: AuditTrailFilter,
  cursor: string | null = null,
): URLSearchParams {
  const query = new URLSearchParams();
  if (filter.limit) query.set("limit", String(filter.limit));
  if (filter.operations?.length) query.set("operation", filter.operations.join(","));
  if (cursor) query.set("cursor", cursor);
  return query;
}

/** The pages loaded so far, read as one list: every event in order, the newest total, where to go on. */
export interface AuditTrailView {
  events: AuditEventData[];
  total: number | null;
  nextCursor: string | null;
}

export function mergeAuditPages(data: InfiniteData<AuditListData, string | null>): AuditTrailView {
  const last = data.pages.at(-1);
  return {
    events: data.pages.flatMap((page) => page.events),
    total: last?.total ?? null,
    nextCursor: last?.next_cursor ?? null,
  };
}

/** The admins' audit page's filters, as the API takes them (periods already turned into instants). */
export interface AuditLogFilter {
  subject?: string;
  /** A user's id, or their display name or its beginning. */
  user?: string;
  playerId?: string;
  operations?: AuditOperation[];
  fromDate?: string;
  toDate?: string;
  limit?: number;
}

/** The query string of GET /audit: the filters, `limit` and `cursor`. */
export function auditLogSearchParams(filter: AuditLogFilter, cursor: string | null = null): URLSearchParams {
  const query = new URLSearchParams();
  if (filter.limit) query.set("limit", String(filter.limit));
  if (filter.subject) query.set("subject", filter.subject);
  if (filter.user) query.set("user", filter.user);
  if (filter.playerId) query.set("player_id", filter.playerId);
  if (filter.operations?.length) query.set("operation", filter.operations.join(","));
  if (filter.fromDate) query.set("from_date", filter.fromDate);
  if (filter.toDate) query.set("to_date", filter.toDate);
  if (cursor) query.set("cursor", cursor);
  return query;
}

/** The audit page's filters in the URL (shareable; back/forward restore them). `tz` is the page's switch. */
export const auditPageSearchParams = {
  user: parseAsString,
  player: parseAsString,
  operation: parseAsStringLiteral(AUDIT_OPERATIONS),
  from: parseAsString,
  to: parseAsString,
  /** `audit_reads=true`: also list admins' reads of the audit trail itself (hidden by default). */
  audit_reads: parseAsBoolean,
};

export interface AuditPageState {
  user: string | null;
  player: string | null;
  operation: AuditOperation | null;
  from: string | null;
  to: string | null;
  audit_reads: boolean | null;
}

/** Every operation that reads player data: all of them but `audit_trail`, an admin's own look at this trail. */
export const PLAYER_DATA_OPERATIONS = AUDIT_OPERATIONS.filter((op) => op !== "audit_trail");

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The page's state → the API's filter: days become the first and last millisecond in the chosen zone. */
export function toAuditLogFilter(state: AuditPageState, tz: TimeZoneChoice, limit: number): AuditLogFilter {
  const filter: AuditLogFilter = { limit };
  if (state.user?.trim()) filter.user = state.user.trim();
  if (state.player?.trim()) filter.playerId = state.player.trim();
  // "Who read P000007 today" at a glance: admins' reads of the trail stay out unless asked for.
  if (state.operation) filter.operations = [state.operation];
  else if (!state.audit_reads) filter.operations = [...PLAYER_DATA_OPERATIONS];
  if (state.from && DAY.test(state.from)) filter.fromDate = dayBounds(state.from, tz).start;
  if (state.to && DAY.test(state.to)) filter.toDate = dayBounds(state.to, tz).end;
  return filter;
}

export type AuditReaderData = NonNullable<AuditLogData["readers"]>[number];

export function mergeAuditLogPages(
  data: InfiniteData<AuditLogData, string | null>,
): AuditTrailView & { readers: AuditReaderData[] | null } {
  return {
    events: data.pages.flatMap((page) => page.events),
    total: null,
    nextCursor: data.pages.at(-1)?.next_cursor ?? null,
    // The same on every page: the newest page's is the freshest.
    readers: data.pages.at(-1)?.readers ?? null,
  };
}

/** The per-player summary's first sentence: "P000007 was read by 2 users, 14 times." (or by nobody). */
export function readersHeadline(playerId: string, readers: readonly AuditReaderData[]): string {
  if (readers.length === 0) return `Nobody read ${playerId}'s data under these filters.`;
  const reads = readers.reduce((n, r) => n + r.reads, 0);
  const users = readers.length === 1 ? "1 user" : `${readers.length} users`;
  return `${playerId} was read by ${users}, ${reads === 1 ? "once" : `${reads} times`}.`;
}

export const AUDIT_DENIED_DETAIL = "Only admins (scope audit:read) can see the audit trail.";

/** What the trail says when it cannot load: the server's detail (a 403 in words) and the request id. */
export function describeAuditTrailError(error: unknown): { message: string; requestId: string | null } {
  if (!(error instanceof ApiRequestError)) {
    return { message: error instanceof Error ? error.message : String(error), requestId: null };
  }
  return {
    message: error.status === 403 ? AUDIT_DENIED_DETAIL : error.detail,
    requestId: error.requestId || null,
  };
}
