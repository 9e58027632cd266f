import { z } from "zod";
import { logLevelSetting, parseSettings } from "@/platform/env/env";

/*
 * The dispatcher's settings (npm run webhooks:dispatch), from its environment: docs/configuration.md and
 * docs/webhooks.md.
 */
const dispatchEnvSchema = z.object({
  DATABASE_URL: z.string().min(1, "set DATABASE_URL: the read model's database (the tables' owner role)"),
  /** Deliveries in flight at once (each holds one database connection while it POSTs). */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** How long the POST may take (connect, send, answer) before the attempt counts as failed. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * How long a failing delivery is retried, from its first attempt (72 h); then it is `failed` and its endpoint
   * marked failing (replay starts it again).
   */
  WEBHOOK_RETRY_WINDOW_MS: z.coerce.number().int().min(10).max(2_592_000_000).default(259_200_000),
  /** An optional bound on attempts, on top of the window (unset: the window alone decides). */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(1000).optional(),
  /** The first retry's delay; each later one doubles, with jitter, up to WEBHOOK_RETRY_MAX_MS. */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
  WEBHOOK_RETRY_MAX_MS: z.coerce.number().int().min(10).max(86_400_000).default(21_600_000),
  /** How often an idle dispatcher looks for due deliveries. */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  LOG_LEVEL: logLevelSetting,
});

/** Every setting the dispatcher reads (docs/configuration.md lists each with the process `dispatch`). */
export const DISPATCH_SETTINGS = Object.keys(
  dispatchEnvSchema.shape,
) as readonly (keyof typeof dispatchEnvSchema.shape)[];

export type DispatchConfig = z.infer<typeof dispatchEnvSchema>;

export const parseDispatchConfig = (env: Record<string, string | undefined>): DispatchConfig =>
  parseSettings(dispatchEnvSchema, env, "npm run webhooks:dispatch: bad configuration");
