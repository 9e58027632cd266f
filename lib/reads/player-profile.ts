import { z } from "zod";
import { hasScope, SCOPES } from "@/lib/auth/scopes";
import { getPlayerProfile } from "@/lib/players/get-player-profile";
import { maskProfileContact } from "@/lib/players/mask-contact";
import { playerIdSchema } from "@/lib/schemas/common";
import { defineRead } from "./read-definition.ts";

/** GET /players/{playerId}: the profile, its contact data masked without players:pii. */
export const playerProfileRead = defineRead({
  params: { playerId: playerIdSchema },
  // No query parameters; built once (building a zod schema costs ~100× parsing with it).
  query: z.strictObject({}),
  run: async function playerProfileRead({ params: { playerId }, principal, db }) {
    const profile = await getPlayerProfile({ playerId }, db);
    return {
      body: hasScope(principal, SCOPES.playersPii) ? profile : maskProfileContact(profile),
      audit: { operation: "profile", playerId },
    };
  },
});
