import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { SCOPES } from "@/lib/auth/scopes";
import {
  badRequest,
  commonErrors,
  ok,
  playerPath,
  requires,
  sessionHeader,
  unknownPlayer,
} from "@/lib/openapi/operation-parts";
import {
  playerProfileSchema,
  playerSearchQuerySchema,
  playerSearchResponseSchema,
} from "@/lib/schemas/player";

/* Player search and profiles. The keys' order is their order in the document. */

const searchPlayers = {
  operationId: "searchPlayers",
  tags: ["Players"],
  security: requires(SCOPES.playersRead),
  summary: "Search players by id, name, e-mail, phone number or transaction id",
  description:
    "An addition to the spec for the back-office lookup: players ordered by id, and the transactions whose id is `q` (ignoring case) with their player. Names match without accents or case, word by word. Needs `players:read`; without `players:pii`, e-mail addresses and phone numbers are masked in the answer and match only when typed in full (an exact address ignoring case, a number by its digits): a part of one matches nothing, so contact data can be confirmed one whole guess at a time only, and each guess is audited. With `assigned=me`, only the players whose `vip_manager` is the caller (the verified token's `name` claim): a VIP manager's own list, recorded in the audit trail like any search.",
  requestParams: { query: playerSearchQuerySchema, header: sessionHeader },
  responses: {
    "200": ok("A page of player summaries.", playerSearchResponseSchema),
    "400": badRequest("Invalid q, limit or offset, or an unknown parameter."),
    ...commonErrors,
  },
} satisfies ZodOpenApiOperationObject;

const getPlayerProfile = {
  operationId: "getPlayerProfile",
  tags: ["Players"],
  security: requires(SCOPES.playersRead),
  description:
    "Needs `players:read`; without `players:pii` the `email` and `phone` fields are masked in the response.",
  summary: "Get complete player profile",
  requestParams: { path: playerPath, header: sessionHeader },
  responses: {
    "200": ok("The player's profile.", playerProfileSchema),
    "400": badRequest("Invalid playerId, or a query parameter was given (this operation takes none)."),
    "404": unknownPlayer(),
    ...commonErrors,
  },
} satisfies ZodOpenApiOperationObject;

export const playerPaths = {
  "/players": { get: searchPlayers },
  "/players/{playerId}": { get: getPlayerProfile },
} satisfies ZodOpenApiPathsObject;
