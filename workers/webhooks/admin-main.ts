/*
 * npm run webhooks -- <command>: an admin manages the risk service's webhook endpoints (docs/webhooks.md).
 *   add --url <https://…> --events <type,type…> [--secret whsec_…] [--min-amount <decimal>] [--description <text>]
 *   list                        endpoints (never their secrets) with pending and failed counts
 *   disable <endpoint id> | enable <endpoint id>
 *   rotate <endpoint id> [--overlap-hours N]   a new secret (printed once); the old one signs too for N h (24)
 *   test <endpoint id>          POSTs a signed `ping` now and prints the answer's status (exit 1 unless 2xx)
 *   deliveries [--status pending|delivered|failed] [--endpoint <id>] [--limit N]
 *   attempts <delivery id>      the delivery log: each attempt's time, status code, latency, error, next attempt
 *   replay <delivery id>        sends a failed (or delivered) delivery again: same event id and body
 * DATABASE_URL: the read model's database (the tables' owner role). `add` prints the secret once, on stdout.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { webhookEndpointInputSchema } from "../../features/webhook-events/schema/webhook-payloads.ts";
import { createPgPool } from "../../platform/db/pg-pool.ts";
import { requireDatabaseUrl } from "../../platform/env/script-env.ts";
import {
  addEndpoint,
  listAttempts,
  listDeliveries,
  listEndpoints,
  pingEndpoint,
  replayDelivery,
  rotateSecret,
  setEndpointActive,
} from "./admin.ts";

type Pool = ReturnType<typeof createPgPool>;

const USAGE = `usage: npm run webhooks -- add --url <url> --events <types> [--secret <whsec_…>] [--min-amount <n>]
       npm run webhooks -- list | disable <id> | enable <id> | attempts <delivery id> | replay <delivery id>
       npm run webhooks -- rotate <id> [--overlap-hours <n>] | test <id>
       npm run webhooks -- deliveries [--status pending|delivered|failed] [--endpoint <id>] [--limit <n>]`;

async function add(values: Record<string, string | undefined>, pool: Pool): Promise<void> {
  const input = webhookEndpointInputSchema.omit({ min_amount: true }).safeParse({
    url: values.url,
    event_types: (values.events ?? "").split(",").filter(Boolean),
    secret: values.secret,
    description: values.description,
  });
  if (!input.success)
    throw new Error(input.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"));
  const minAmount = values["min-amount"];
  if (minAmount !== undefined && !/^\d{1,12}(\.\d{1,8})?$/.test(minAmount))
    throw new Error("min-amount: a non-negative decimal, up to 12 integer and 8 fractional digits");
  const { id, secret } = await addEndpoint(
    {
      url: input.data.url,
      eventTypes: input.data.event_types,
      secret: input.data.secret,
      minAmount,
      description: input.data.description,
    },
    pool,
  );
  // The only time the secret is shown: give it to the receiver now (it is never logged nor listed).
  process.stdout.write(`${JSON.stringify({ id, secret })}\n`);
}

async function run(command: string | undefined, args: string[], pool: Pool): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      url: { type: "string" },
      events: { type: "string" },
      secret: { type: "string" },
      "min-amount": { type: "string" },
      description: { type: "string" },
      status: { type: "string" },
      endpoint: { type: "string" },
      limit: { type: "string" },
      "overlap-hours": { type: "string" },
    },
  });
  const id = positionals[0];
  const print = (value: unknown): void => {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  };
  if (command === "add") return add(values, pool);
  if (command === "list") return print(await listEndpoints({}, pool));
  if (command === "deliveries") {
    const status = z.enum(["pending", "delivered", "failed"]).optional().parse(values.status);
    const limit = z.coerce.number().int().min(1).max(1000).optional().parse(values.limit);
    return print(await listDeliveries({ status, endpointId: values.endpoint, limit }, pool));
  }
  if (!id) throw new Error(USAGE);
  if (command === "disable" || command === "enable") {
    if (!(await setEndpointActive({ id, active: command === "enable" }, pool)))
      throw new Error(`no endpoint ${id}`);
    return print({ id, active: command === "enable" });
  }
  if (command === "rotate") {
    const hours = z.coerce.number().min(0).max(720).default(24).parse(values["overlap-hours"]);
    const rotated = await rotateSecret({ id, overlapMs: Math.round(hours * 3_600_000) }, pool);
    if (!rotated) throw new Error(`no endpoint ${id}`);
    // The only time the new secret is shown (as with add): give it to the receiver now.
    return print(rotated);
  }
  if (command === "test") {
    const result = await pingEndpoint({ id, timeoutMs: 10_000 }, pool);
    if (!result) throw new Error(`no endpoint ${id}`);
    print(result);
    if (!result.ok) process.exitCode = 1;
    return;
  }
  if (command === "attempts") {
    if (!/^\d{1,18}$/.test(id)) throw new Error("a delivery id is a number (see `deliveries`)");
    return print(await listAttempts({ deliveryId: id }, pool));
  }
  if (command === "replay") {
    if (!/^\d{1,18}$/.test(id)) throw new Error("a delivery id is a number (see `deliveries`)");
    if (!(await replayDelivery({ id }, pool))) throw new Error(`no failed or delivered delivery ${id}`);
    return print({ id, status: "pending" });
  }
  throw new Error(USAGE);
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const url = requireDatabaseUrl("npm run webhooks");
  const pool = createPgPool(url, { max: 1, applicationName: "webhooks-cli" });
  try {
    await run(command, args, pool);
  } finally {
    await pool.end();
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(2);
});
