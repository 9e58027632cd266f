import { z } from "zod";
import { dateTimeSchema } from "../../../platform/schemas/common.ts";
import { eventTypeSchema } from "./transaction.ts";

const countSchema = z.number().int().meta({ description: "Number of the player's transactions." });

export const transactionFacetsSchema = z
  .object({
    player_id: z.string(),
    total: countSchema.meta({
      description: "Number of the player's transactions matching every filter given.",
    }),
    event_types: z.array(z.object({ value: eventTypeSchema, count: countSchema })).meta({
      description:
        "Every event type, in the API's order, with its count under the filters other than `event_type` (0 when none).",
    }),
    event_names: z
      .array(
        z.object({
          value: z.string().meta({ description: "An `event_name` filter value, exactly as stored." }),
          count: countSchema,
          event_types: z.array(eventTypeSchema).meta({
            description:
              "The event types this name occurs with, under the filters other than `event_type` and `event_name`.",
          }),
        }),
      )
      .meta({
        description:
          "The event names the player has under the date, status and id filters, plus any selected name, ordered by name; counts under the filters other than `event_name`.",
      }),
    created_by: z.array(z.object({ value: z.string(), count: countSchema })).meta({
      description:
        "The creators under the date, status and id filters, plus a selected one, ordered by name; counts under the filters other than `created_by`.",
    }),
    first_date: dateTimeSchema.nullable().meta({ description: "Oldest transaction `date`; null when none." }),
    last_date: dateTimeSchema.nullable().meta({ description: "Newest transaction `date`; null when none." }),
  })
  .meta({
    id: "TransactionFacets",
    description:
      "The values the transaction filters can take for this player, with faceted counts: each facet's counts apply every filter given except its own (with `event_type=bet`, `event_types` still counts every type under the other filters, while `event_names` and `created_by` count bets only); `total` applies them all. Without filters the counts are over all of the player's transactions. `first_date` and `last_date` always span all of them.",
  });

export type TransactionFacets = z.infer<typeof transactionFacetsSchema>;
