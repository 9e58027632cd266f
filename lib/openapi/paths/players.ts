import type { ZodOpenApiPathsObject } from "zod-openapi";
import { SCOPES } from "@/lib/auth/scopes";
import {
  playerProfileSchema,
  playerSearchQuerySchema,
  playerSearchResponseSchema,
} from "@/lib/schemas/player";
import { commonErrors, ok, playerPath, problem, requires, sessionHeader } from "../operation-parts.ts";

/** Player search and the profile. */
export const playerOperations = {
  "/players": {
    get: {
      operationId: "searchPlayers",
      tags: ["Players"],
      security: requires(SCOPES.playersRead),
      summary: "Search players by id, name or email",
      description:
        "An addition to the spec for the back-office lookup: players ordered by id. Needs `players:read`; without `players:pii`, e-mail addresses are masked and not searched. With `assigned=me`, only the players whose `vip_manager` is the caller (the verified token's `name` claim): a VIP manager's own list, recorded in the audit trail like any search.",
      requestParams: { query: playerSearchQuerySchema, header: sessionHeader },
      responses: {
        "200": ok("A page of player summaries.", playerSearchResponseSchema),
        "400": problem("Invalid q, limit or offset, or an unknown parameter."),
        ...commonErrors,
      },
    },
  },
  "/players/{playerId}": {
    get: {
      operationId: "getPlayerProfile",
      tags: ["Players"],
      security: requires(SCOPES.playersRead),
      description:
        "Needs `players:read`; without `players:pii` the `email` and `phone` fields are masked in the response.",
      summary: "Get complete player profile",
      requestParams: { path: playerPath, header: sessionHeader },
      responses: {
        "200": ok("The player's profile.", playerProfileSchema),
        "400": problem("Invalid playerId, or a query parameter was given (this operation takes none)."),
        "404": problem("No player with this id."),
        ...commonErrors,
      },
    },
  },
} satisfies ZodOpenApiPathsObject;
