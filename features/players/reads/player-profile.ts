import { z } from "zod";
import { getPlayerProfile } from "@/features/players/data/get-player-profile";
import { maskProfileContact } from "@/features/players/data/mask-contact";
import { hasScope, SCOPES } from "@/platform/auth/scopes";
import { playerIdSchema } from "@/platform/schemas/common";
import { defineRead } from "../../../platform/reads/read-definition.ts";

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
