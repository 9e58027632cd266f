import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { profileExample } from "@/features/api-docs";
import { playerExportQuerySchema, playerProfileSchema } from "@/features/players";
import { SCOPES } from "@/platform/auth/scopes";
import { exportHeaders, RESUME_RECIPE } from "@/platform/openapi/export-parts";
import { readResponses, requires, sessionHeader } from "@/platform/openapi/operation-parts";

/* The bulk exports that are not one player's: the profiles. */

/** A support agent's line (no players:pii): the profile read's answer, contact data masked. */
const PROFILE_LINE = { ...profileExample, email: "m***@example.com", phone: "+81 ••• ••• 61" };

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
      description:
        "The profiles, one per line: each line is one `PlayerProfile` (the schema given is one line's), ended by a line feed; `X-Total-Count` the lines of the whole export.",
      headers: exportHeaders,
      content: {
        "application/x-ndjson": {
          // OpenAPI 3.1 has no schema for the items of a stream (3.2's itemSchema): the schema is one line's.
          schema: playerProfileSchema,
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
