import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { SCOPES } from "@/lib/auth/scopes";
import { exportHeaders, RESUME_RECIPE } from "@/lib/openapi/export-parts";
import { readResponses, requires, sessionHeader } from "@/lib/openapi/operation-parts";
import { playerExportQuerySchema } from "@/lib/schemas/player";

/* The bulk exports that are not one player's: the profiles. */

const PROFILE_LINE =
  '{"id":"P000007","name":"Jonas Weber","email":"j***@example.com","phone":"+49 ••• ••• 42","currency":"EUR","language":"German","registration_date":"2021-03-14T09:12:00.000Z","ftd_date":"2021-03-14T09:40:00.000Z","last_login":"2026-11-25T21:03:00.000Z","kyc_status":"approved","withdrawal_status":"allowed","affiliate_name":null,"affiliate_source":null,"vip_manager":"Sarah Mitchell","blocked":false,"balances":{"total_balance":18250.75,"cash_balance":18000.75,"bonus_balance":250,"withdrawable_balance":18000.75,"pending_withdrawal":0},"kpi":{"active_bonus":true,"wr":1200,"last_withdrawal":null,"last_deposit":{"amount":500,"date":"2026-11-20T18:04:11.000Z"},"ltd":125000,"ltw":98000,"ltnc":27000},"segments":["high_roller"],"settings":{"marketing_email_subscription":true,"email_validation":true,"email_account_activation":true,"marketing_sms_subscription":false,"sms_validation":true,"sms_account_activation":true,"want_bonus":true}}\n';

const exportPlayerProfiles = {
  operationId: "exportPlayerProfiles",
  tags: ["Players"],
  security: requires(SCOPES.playersRead),
  summary: "Export full player profiles as NDJSON",
  description:
    "For bulk refreshes by machines (one request instead of one per player): every player's full profile, one JSON object per line in the shape of `GET /players/{playerId}` (e-mail and phone masked without `players:pii`, exactly as that read masks them), in id order, streamed in batches (constant memory, first bytes at once). Filter with `manager`. `X-Total-Count` sends the number of lines at once; `Accept-Encoding: gzip` gets a gzip body. " +
    RESUME_RECIPE +
    " Audit: each batch of players is recorded (operation `profiles_export`, its players in `result_player_ids`) before it is sent; the records of one export share its `request_id`, so the trail names every player whose data left, and a player's own trail shows the export. A batch that cannot be recorded is not sent: the transfer ends short (resume later). One caller runs at most 2 exports at once (server setting), as for the transactions export: beyond it 429 with `Retry-After`. Under `/exports`, not `/players/export`, which would hide a player whose id is `export`.",
  requestParams: { query: playerExportQuerySchema, header: sessionHeader },
  responses: readResponses(
    {
      description: "The profiles, one per line; `X-Total-Count` the lines of the whole export.",
      headers: exportHeaders,
      content: {
        "application/x-ndjson": {
          schema: z.string().meta({ description: "One `PlayerProfile` JSON object per line, in id order." }),
          examples: {
            masked: {
              summary: "A support agent's export (no players:pii): contact data masked",
              value: PROFILE_LINE,
            },
          },
        },
      },
    },
    "An unknown parameter, an empty `manager`, or an `after` that is no player's id; `errors` names each one.",
    { stream: true },
  ),
} satisfies ZodOpenApiOperationObject;

export const exportPaths = {
  "/exports/players": { get: exportPlayerProfiles },
} satisfies ZodOpenApiPathsObject;
