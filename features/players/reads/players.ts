import { defineReadChoice } from "../../../platform/reads/read-definition.ts";
import { isBatchRead, playerBatchRead, rejectSearchWithIds } from "./player-batch.ts";
import { playerSearchRead } from "./player-search.ts";

/** GET /players: `ids=…` is a batch read of full profiles (player-batch.ts); anything else a search. */
export const playersRead = defineReadChoice({
  choose(searchParams) {
    if (!isBatchRead(searchParams)) return playerSearchRead;
    rejectSearchWithIds(searchParams);
    return playerBatchRead;
  },
});
