import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { playerBatchExample, playerSearchExample, profileExample } from "@/features/api-docs";
import {
  MAX_BATCH_IDS,
  playerBatchIdsParam,
  playerBatchResponseSchema,
  playerProfileSchema,
  playerSearchQuerySchema,
  playerSearchResponseSchema,
} from "@/features/players/schema/player";
import { SCOPES } from "@/platform/auth/scopes";
import {
  ok,
  paged,
  playerPath,
  readHeaders,
  readResponses,
  requires,
} from "@/platform/openapi/operation-parts";

/* Player search and profiles. The keys' order is their order in the document. */

const searchPlayers = {
  operationId: "searchPlayers",
  tags: ["Players"],
  security: requires(SCOPES.playersRead),
  summary: "Search players, or read up to 100 full profiles at once (`ids`)",
  description:
    "An addition to the spec for the back-office lookup: players ordered by id, and the transactions whose id is `q` (ignoring case) with their player. Names match without accents or case, word by word. Needs `players:read`; without `players:pii`, e-mail addresses and phone numbers are masked in the answer and match only when typed in full (an exact address ignoring case, a number by its digits): a part of one matches nothing, so contact data can be confirmed one whole guess at a time only, and each guess is audited. With `assigned=me`, only the players whose `vip_manager` is the caller (the manager the verified token's subject is mapped to by `VIP_MANAGER_SUBJECTS`): a VIP manager's own list, recorded in the audit trail like any search.\n\n" +
    `**Batch read** (\`ids=P1,P2,…\`, up to ${MAX_BATCH_IDS} distinct ids): the full profiles, each exactly as \`GET /players/{playerId}\` answers it (masked alike), in the order named; ids that are no player are listed in \`missing\` (still a 200). Each player returned is one \`profile\` row in the audit trail; the request counts once against the quota. For a machine refreshing many profiles this is the way: 5,000 profiles in 50 requests instead of 5,000. \`ids\` cannot be combined with \`q\`, \`assigned\`, \`limit\` or \`offset\` (a 400 naming them).`,
  requestParams: {
    query: playerSearchQuerySchema.extend({ ids: playerBatchIdsParam.optional() }),
    header: readHeaders,
  },
  responses: readResponses(
    {
      ...paged(
        ok(
          "A page of player summaries (`PlayerSearchResult`; `Link` names the next page, `offset` + `limit`), or with `ids` the profiles named (`PlayerBatch`, one page: no `Link`).",
          z.union([playerSearchResponseSchema, playerBatchResponseSchema]),
        ),
      ),
      content: {
        "application/json": {
          schema: z.union([playerSearchResponseSchema, playerBatchResponseSchema]),
          examples: {
            search: { summary: "GET /players?q=P000007&limit=1", value: playerSearchExample },
            batch: { summary: "GET /players?ids=P000007,P999999", value: playerBatchExample },
          },
        },
      },
    },
    `Invalid q, limit or offset, an unknown parameter, \`ids\` empty, malformed or naming more than ${MAX_BATCH_IDS} distinct ids, or \`ids\` beside a search parameter.`,
  ),
} satisfies ZodOpenApiOperationObject;

const getPlayerProfile = {
  operationId: "getPlayerProfile",
  tags: ["Players"],
  security: requires(SCOPES.playersRead),
  description:
    "Needs `players:read`; without `players:pii` the `email` and `phone` fields are masked in the response.",
  summary: "Get complete player profile",
  requestParams: { path: playerPath, header: readHeaders },
  responses: readResponses(
    ok("The player's profile.", playerProfileSchema, profileExample),
    "Invalid playerId, or a query parameter was given (this operation takes none).",
    { player: true },
  ),
} satisfies ZodOpenApiOperationObject;

export const playerPaths = {
  "/players": { get: searchPlayers },
  "/players/{playerId}": { get: getPlayerProfile },
} satisfies ZodOpenApiPathsObject;
