import { infiniteQueryOptions } from "@tanstack/react-query";
import type { AuditListResponse, AuditLogResponse } from "@/features/audit/schema/audit";
import { apiGet } from "../../../platform/client/api-client.ts";
import type { Wire } from "../../../platform/client/wire.ts";
import { WIRE_DECIMALS } from "../../../platform/client/wire-decimals.ts";
import {
  type AuditLogFilter,
  type AuditTrailFilter,
  auditLogSearchParams,
  auditTrailSearchParams,
  mergeAuditLogPages,
  mergeAuditPages,
} from "./audit-trail.ts";

export type AuditListData = Wire<AuditListResponse>;
export type AuditEventData = AuditListData["events"][number];
export type AuditLogData = Wire<AuditLogResponse>;

const player = (id: string) => `/players/${encodeURIComponent(id)}`;

/** The audit reads the pages make: the key says exactly which request it is. */
export const auditQueries = {
  /** Cursor-paged, newest first; `select` reads the loaded pages as one list (see mergeAuditPages). */
  auditTrail: (playerId: string, filter: AuditTrailFilter) =>
    infiniteQueryOptions({
      queryKey: ["player", playerId, "audit", auditTrailSearchParams(filter).toString()],
      queryFn: ({ pageParam, signal }) =>
        apiGet<AuditListData>(
          `${player(playerId)}/audit`,
          WIRE_DECIMALS.auditList,
          auditTrailSearchParams(filter, pageParam),
          signal,
        ),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next_cursor,
      select: mergeAuditPages,
      // Every read of the player adds to the trail (this one too): read it afresh each time it is shown.
      staleTime: 0,
    }),
  /** The admins' audit page across all players: cursor-paged like a player's trail. */
  auditLog: (filter: AuditLogFilter) =>
    infiniteQueryOptions({
      queryKey: ["audit", auditLogSearchParams(filter).toString()],
      queryFn: ({ pageParam, signal }) =>
        apiGet<AuditLogData>(
          "/audit",
          WIRE_DECIMALS.auditLog,
          auditLogSearchParams(filter, pageParam),
          signal,
        ),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next_cursor,
      select: mergeAuditLogPages,
      staleTime: 0,
    }),
};
