import { z } from "zod";
import { dateTimeSchema } from "./common.ts";
import { eventTypeSchema } from "./transaction.ts";

const countSchema = z.number().int().meta({ description: "Number of the player's transactions." });

export const transactionFacetsSchema = z
  .object({
    player_id: z.string(),
    total: countSchema.meta({ description: "Number of the player's transactions, unfiltered." }),
    event_types: z
      .array(z.object({ value: eventTypeSchema, count: countSchema }))
      .meta({ description: "Every event type, in the API's order, with the player's count (0 when none)." }),
    event_names: z
      .array(
        z.object({
          value: z.string().meta({ description: "An `event_name` filter value, exactly as stored." }),
          count: countSchema,
          event_types: z
            .array(eventTypeSchema)
            .meta({ description: "The event types this name occurs with for the player." }),
        }),
      )
      .meta({ description: "The event names the player actually has, ordered by name." }),
    created_by: z
      .array(z.object({ value: z.string(), count: countSchema }))
      .meta({ description: "The creators of the player's transactions, ordered by name." }),
    first_date: dateTimeSchema.nullable().meta({ description: "Oldest transaction `date`; null when none." }),
    last_date: dateTimeSchema.nullable().meta({ description: "Newest transaction `date`; null when none." }),
  })
  .meta({
    id: "TransactionFacets",
    description:
      "The values the transaction filters can take for this player, with counts over all of the player's transactions (the counts do not depend on any filter).",
  });

export type TransactionFacets = z.infer<typeof transactionFacetsSchema>;
