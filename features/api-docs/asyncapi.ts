import { createDocument } from "zod-openapi";
import {
  DEAD_REASON_HEADER,
  DEAD_STREAM,
  DEAD_SUBJECT_HEADER,
  WALLET_EVENT_SUBJECTS,
  WALLET_STREAM,
  WALLET_SUBJECTS,
  walletPlayerEventSchema,
  walletTransactionEventSchema,
} from "@/features/live";

/*
 * The wallet's event contract as an AsyncAPI 3.0 document, generated from the same zod schemas as the consumer's
 * validation and the OpenAPI document (the payload schemas come out of zod-openapi, so `amount` is a number and
 * every shared component, Transaction's fields included, reads as in the API's document). Written to
 * docs/asyncapi.json by `npx tsx tools/docs-asyncapi.ts`; a unit test fails when that file is out of date.
 */

const msgIdHeader = (what: string) => ({
  type: "object",
  required: ["Nats-Msg-Id"],
  properties: {
    "Nats-Msg-Id": {
      type: "string",
      pattern: "^.+:[1-9][0-9]*$",
      description: `\`<${what} id>:<version>\`. JetStream drops a message whose id it has seen within the stream's duplicate window (2 min): publish again under the same id until the stream acknowledges.`,
    },
  },
});

/** zod → JSON Schema exactly as for the OpenAPI document (components by their meta ids). */
function walletEventSchemas() {
  const openapi = createDocument({
    openapi: "3.1.0",
    info: { title: "wallet events", version: "1" },
    paths: {},
    components: {
      schemas: {
        WalletTransactionEvent: walletTransactionEventSchema,
        WalletPlayerEvent: walletPlayerEventSchema,
      },
    },
  });
  return openapi.components?.schemas ?? {};
}

const channels = {
  walletTransaction: {
    address: WALLET_SUBJECTS.transaction,
    messages: { WalletTransactionEvent: { $ref: "#/components/messages/WalletTransactionEvent" } },
  },
  walletPlayer: {
    address: WALLET_SUBJECTS.player,
    messages: { WalletPlayerEvent: { $ref: "#/components/messages/WalletPlayerEvent" } },
  },
  walletDead: {
    address: WALLET_SUBJECTS.dead,
    messages: { DeadLetter: { $ref: "#/components/messages/DeadLetter" } },
  },
};

const operations = {
  receiveTransaction: {
    action: "receive",
    channel: { $ref: "#/channels/walletTransaction" },
    summary: "Apply a transaction version (a later version of the same id is a state change).",
    messages: [{ $ref: "#/channels/walletTransaction/messages/WalletTransactionEvent" }],
  },
  receivePlayer: {
    action: "receive",
    channel: { $ref: "#/channels/walletPlayer" },
    summary: "Apply a profile version (balances and KPIs are derived, not taken).",
    messages: [{ $ref: "#/channels/walletPlayer/messages/WalletPlayerEvent" }],
  },
  sendDeadLetter: {
    action: "send",
    channel: { $ref: "#/channels/walletDead" },
    summary:
      "An event that cannot be applied: malformed (at once), or a transaction whose player stays unknown (after INGEST_UNKNOWN_PLAYER_MAX_DELIVERIES deliveries).",
    messages: [{ $ref: "#/channels/walletDead/messages/DeadLetter" }],
  },
};

const messages = {
  WalletTransactionEvent: {
    name: "WalletTransactionEvent",
    title: "A transaction, as a db:import line, with status and version",
    headers: msgIdHeader("transaction"),
    payload: { $ref: "#/components/schemas/WalletTransactionEvent" },
  },
  WalletPlayerEvent: {
    name: "WalletPlayerEvent",
    title: "A player profile, as a db:import line, with version",
    headers: msgIdHeader("player"),
    payload: { $ref: "#/components/schemas/WalletPlayerEvent" },
  },
  DeadLetter: {
    name: "DeadLetter",
    title: "An event the read model could not apply",
    contentType: "application/octet-stream",
    headers: {
      type: "object",
      required: [DEAD_REASON_HEADER, DEAD_SUBJECT_HEADER],
      properties: {
        [DEAD_REASON_HEADER]: {
          type: "string",
          description: "Why, e.g. `amount: must be a JSON number (exact decimal)`.",
        },
        [DEAD_SUBJECT_HEADER]: { type: "string", description: "The subject it was published on." },
        "Original-Msg-Id": { type: "string", description: "Its Nats-Msg-Id, when it had one." },
        "Nats-Msg-Id": { type: "string", description: "`dead:<stream sequence of the original>`." },
      },
    },
    payload: { type: "string", description: "The original payload, byte for byte." },
  },
};

export function buildAsyncApiDocument() {
  return {
    asyncapi: "3.0.0",
    info: {
      title: "Wallet events for the Player Account Read Service",
      version: "1.0.0",
      description: `The wallet publishes every change of a transaction or a player profile to the NATS JetStream stream \`${WALLET_STREAM}\`; \`npm run ingest\` applies them to the read model exactly once in effect (docs/live-data.md). Records are exactly the lines of \`db:import\`'s files plus \`version\`. Events it cannot apply go to \`${WALLET_SUBJECTS.dead}\` with the reason.`,
    },
    defaultContentType: "application/json",
    servers: {
      local: {
        host: "127.0.0.1:4222",
        protocol: "nats",
        description: `NATS with JetStream: stream \`${WALLET_STREAM}\` (file storage, subjects ${WALLET_EVENT_SUBJECTS.join(", ")}) and stream \`${DEAD_STREAM}\` (subject ${WALLET_SUBJECTS.dead}, each dead letter kept INGEST_DEAD_LETTER_MAX_AGE_DAYS, 14 days by default). Clients authenticate (docs/live-data.md): only the wallet's user may publish its subjects, the consumer's only ${WALLET_SUBJECTS.dead}.`,
      },
    },
    channels,
    operations,
    components: {
      messages,
      schemas: walletEventSchemas(),
    },
  };
}
