import { readFileSync } from "node:fs";
import {
  AuthorizationError,
  type ConnectionOptions,
  connect,
  credsAuthenticator,
  type NatsConnection,
} from "@nats-io/transport-node";
import { z } from "zod";
import { parseSettings } from "@/platform/env/env";
import {
  checkNatsCredentials,
  natsAllowAnonymousShape,
  natsConnectionShape,
} from "../../platform/env/nats-settings.ts";

/*
 * Who a process is at the NATS server: `npm run ingest`, `npm run wallet:simulate` and /api/health/ingest connect
 * with these settings (docs/configuration.md, docs/live-data.md). Anyone who can publish on the wallet's subjects
 * changes balances and triggers signed webhooks, so the consumer fails closed on a server that lets an anonymous
 * client in, as the web server does on a database role that could rewrite the audit trail.
 */

export const natsAuthEnvShape = { ...natsConnectionShape, ...natsAllowAnonymousShape };

const natsAuthSchema = z.object(natsAuthEnvShape).superRefine(checkNatsCredentials);

export type NatsAuthSettings = z.infer<typeof natsAuthSchema>;

/** The NATS credentials and TLS settings of an environment (NATS_* above). */
export const parseNatsAuth = (env: Record<string, string | undefined>): NatsAuthSettings =>
  parseSettings(natsAuthSchema, env, "bad NATS settings");

/** The settings that name credentials, for the messages that ask for them. */
export const NATS_CREDENTIAL_SETTINGS = "NATS_CREDS, NATS_USER/NATS_PASSWORD or NATS_TOKEN";

export const hasNatsCredentials = (s: Partial<NatsAuthSettings>): boolean =>
  Boolean(s.NATS_CREDS || s.NATS_USER || s.NATS_TOKEN);

/** Connection options carrying the credentials and the CA (nothing when none is set). */
export function natsAuthOptions(s: Partial<NatsAuthSettings>): ConnectionOptions {
  const options: ConnectionOptions = {};
  // Read at each (re)connect, so a rotated credentials file is picked up.
  if (s.NATS_CREDS) {
    const file = s.NATS_CREDS;
    options.authenticator = credsAuthenticator(() => readFileSync(file));
  } else if (s.NATS_USER) {
    options.user = s.NATS_USER;
    options.pass = s.NATS_PASSWORD;
  } else if (s.NATS_TOKEN) {
    options.token = s.NATS_TOKEN;
  }
  if (s.NATS_TLS_CA) options.tls = { caFile: s.NATS_TLS_CA };
  return options;
}

export type NatsAccess = { ok: true; warning?: string } | { ok: false; reason: string };

/**
 * Whether the consumer may run against this server. Without credentials: only with NATS_ALLOW_ANONYMOUS=on.
 * With credentials: an anonymous connection is tried too (no reconnect, 2 s), and a server that accepts it is
 * refused likewise, since then anyone who reaches it may publish the wallet's events. Run once connected with
 * the credentials (so the server is up).
 */
export async function checkNatsAccess(
  url: string,
  s: NatsAuthSettings,
  probe: (options: ConnectionOptions) => Promise<NatsConnection> = connect,
): Promise<NatsAccess> {
  const allowed = s.NATS_ALLOW_ANONYMOUS === "on";
  const allowedNote =
    "NATS_ALLOW_ANONYMOUS=on: running although anyone who reaches NATS can publish wallet events";
  if (!hasNatsCredentials(s)) {
    if (allowed) return { ok: true, warning: `no NATS credentials; ${allowedNote}` };
    return {
      ok: false,
      reason: `no NATS credentials: set ${NATS_CREDENTIAL_SETTINGS} (and a server that requires them), or NATS_ALLOW_ANONYMOUS=on to run on an anonymous server`,
    };
  }
  let anonymous: NatsConnection | null = null;
  try {
    anonymous = await probe({
      servers: url,
      timeout: 2_000,
      reconnect: false,
      name: "ingest:anonymous-probe",
      ...(s.NATS_TLS_CA ? { tls: { caFile: s.NATS_TLS_CA } } : {}),
    });
  } catch (error) {
    // Refused at connect: the server requires credentials. Anything else leaves the question open: fail closed.
    if (error instanceof AuthorizationError) return { ok: true };
    return {
      ok: false,
      reason: `could not check whether the NATS server at ${url} accepts anonymous clients: ${String(error)}`,
    };
  } finally {
    await anonymous?.close().catch(() => undefined);
  }
  if (allowed) return { ok: true, warning: `the NATS server accepts anonymous clients; ${allowedNote}` };
  return {
    ok: false,
    reason: `the NATS server at ${url} accepts anonymous clients: give it accounts with permissions (docs/live-data.md) so that only ${NATS_CREDENTIAL_SETTINGS} get in, or set NATS_ALLOW_ANONYMOUS=on`,
  };
}
