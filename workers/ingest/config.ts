import { z } from "zod";
import { logLevelSetting, parseSettings } from "@/platform/env/env";
import {
  checkNatsCredentials,
  natsAllowAnonymousShape,
  natsConnectionShape,
} from "../../platform/env/nats-settings.ts";

/*
 * The consumer's settings (npm run ingest), from its environment: docs/configuration.md. Apart from the app's
 * platform/env/env.ts, which describes the web server (the consumer needs neither AUTH_MODE nor the session secrets).
 */
const ingestSettings = z.object({
  DATABASE_URL: z.string().min(1, "set DATABASE_URL: the read model's database (the tables' owner role)"),
  NATS_URL: z.string().min(1).default("nats://127.0.0.1:4222"),
  ...natsConnectionShape,
  ...natsAllowAnonymousShape,
  /** The durable consumer's name: one name per read model (instances sharing it share the work). */
  INGEST_CONSUMER: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .default("read-model"),
  /** Most events applied in one database transaction. */
  INGEST_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(1_000),
  /** How long the stream waits for an ack before delivering an event again (after a crash, say). */
  INGEST_ACK_WAIT_MS: z.coerce.number().int().min(1_000).max(600_000).default(5_000),
  /** How long a transaction of a player not yet known waits before it is delivered again. */
  INGEST_UNKNOWN_PLAYER_DELAY_MS: z.coerce.number().int().min(10).max(600_000).default(1_000),
  /** Deliveries of such a transaction before it goes to wallet.dead. */
  INGEST_UNKNOWN_PLAYER_MAX_DELIVERIES: z.coerce.number().int().min(1).max(100_000).default(30),
  /**
   * How far past the stored version (0 for a record not yet stored) an event's version may be; beyond, it goes to
   * wallet.dead: a forged 2147483647 would freeze the record (no later version could ever replace it).
   */
  INGEST_MAX_VERSION_JUMP: z.coerce.number().int().min(1).max(2_147_483_647).default(1_000),
  /**
   * Events the database may refuse alone (each to wallet.dead) with none applied in between; beyond, they are
   * retried as in an outage: refused one after another, the schema is more likely at fault than the events.
   */
  INGEST_MAX_REFUSED_IN_A_ROW: z.coerce.number().int().min(1).max(100_000).default(20),
  /** How long wallet.dead keeps a dead letter (its stream's max_age): they hold the events' personal data. */
  INGEST_DEAD_LETTER_MAX_AGE_DAYS: z.coerce.number().positive().max(3_650).default(14),
  /** Statement timeout of the consumer's database connections. */
  INGEST_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** How often a progress line is logged. */
  INGEST_LOG_EVERY_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  LOG_LEVEL: logLevelSetting,
});

/** Every setting the consumer reads (docs/configuration.md lists each with the process `ingest`). */
export const INGEST_SETTINGS = Object.keys(
  ingestSettings.shape,
) as readonly (keyof typeof ingestSettings.shape)[];

const ingestEnvSchema = ingestSettings.superRefine(checkNatsCredentials);

export type IngestConfig = z.output<typeof ingestEnvSchema>;

export const parseIngestConfig = (env: Record<string, string | undefined>): IngestConfig =>
  parseSettings(ingestEnvSchema, env, "npm run ingest: bad configuration");
