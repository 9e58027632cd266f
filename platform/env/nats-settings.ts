import { z } from "zod";

/*
 * Who a process is at the NATS server, as settings: part of the schema of every process that connects (the web
 * app's platform/env/env.ts for /api/health/ingest, the consumer's workers/ingest/config.ts, wallet:simulate's
 * workers/ingest/nats-auth.ts). zod only, so that platform/env/env.ts reaches no NATS client.
 */

/** The credentials and TLS a connection uses (none set: an anonymous connection). */
export const natsConnectionShape = {
  /** A NATS credentials file (a user JWT and its NKey seed), as `nsc` writes it. */
  NATS_CREDS: z.string().min(1).optional(),
  NATS_USER: z.string().min(1).optional(),
  NATS_PASSWORD: z.string().min(1).optional(),
  NATS_TOKEN: z.string().min(1).optional(),
  /** A PEM file of the CA that signed the server's certificate: the connection then requires TLS. */
  NATS_TLS_CA: z.string().min(1).optional(),
};

/** `on`: npm run ingest runs on a server that accepts anonymous clients (warned at every start). */
export const natsAllowAnonymousShape = { NATS_ALLOW_ANONYMOUS: z.enum(["on", "off"]).default("off") };

type NatsCredentialSettings = Partial<
  Record<"NATS_CREDS" | "NATS_USER" | "NATS_PASSWORD" | "NATS_TOKEN", string>
>;

/** The credentials' rules across settings: a user with its password, and one kind of credentials at most. */
export function checkNatsCredentials(s: NatsCredentialSettings, ctx: z.RefinementCtx): void {
  if (!s.NATS_USER !== !s.NATS_PASSWORD) {
    ctx.addIssue({
      code: "custom",
      path: ["NATS_PASSWORD"],
      message: "set NATS_USER and NATS_PASSWORD together",
    });
  }
  if ([s.NATS_CREDS, s.NATS_USER, s.NATS_TOKEN].filter(Boolean).length > 1) {
    ctx.addIssue({
      code: "custom",
      path: ["NATS_CREDS"],
      message: "set one of NATS_CREDS, NATS_USER/NATS_PASSWORD or NATS_TOKEN",
    });
  }
}
