import { z } from "zod";

export const FEED_STATES = ["connecting", "live", "unavailable"] as const;

/** The live-update stream takes no parameters: unknown ones are a 400, as everywhere. */
export const playerEventsQuerySchema = z.strictObject({}).meta({ id: "PlayerEventsQuery" });

export const feedEventSchema = z
  .object({
    state: z.enum(FEED_STATES).meta({
      description:
        "`live`: changes arrive; `connecting`: the server is (re)connecting to the database's notifications, changes may be missed until it is `live` again (read the player again then); `unavailable`: the stream ends, retry later.",
    }),
  })
  .meta({ id: "LiveFeedEvent" });

export const changeEventSchema = z
  .object({ player_id: z.string().meta({ description: "The player whose data changed." }) })
  .meta({ id: "LiveChangeEvent" });

export const renewEventSchema = z
  .object({ reason: z.literal("lifetime") })
  .meta({ id: "LiveRenewEvent", description: "The stream ends now by design; open a new one at once." });
