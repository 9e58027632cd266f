import { once } from "node:events";
import { createWriteStream } from "node:fs";
import type { ClientBase } from "pg";
import { copyOut } from "../../tools/data/copy-rows.ts";

/*
 * The database's players and transactions as NDJSON in the API's shapes (GET /api/players/{id}, and the
 * transaction list's records plus player_id), built by PostgreSQL and streamed out by COPY: db:import's
 * input format, used to test it (the import round trip).
 */

const ts = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const money = (column: string) => `trim_scale(${column})`;

const PLAYER_JSON_SQL = `json_build_object(
  'id', id, 'name', name, 'email', email, 'phone', phone, 'currency', currency, 'language', language,
  'registration_date', ${ts("registration_date")}, 'ftd_date', ${ts("ftd_date")}, 'last_login', ${ts("last_login")},
  'kyc_status', kyc_status, 'withdrawal_status', withdrawal_status, 'affiliate_name', affiliate_name,
  'affiliate_source', affiliate_source, 'vip_manager', vip_manager, 'blocked', blocked,
  'balances', json_build_object('total_balance', ${money("total_balance")}, 'cash_balance', ${money("cash_balance")},
    'bonus_balance', ${money("bonus_balance")}, 'withdrawable_balance', ${money("withdrawable_balance")},
    'pending_withdrawal', ${money("pending_withdrawal")}),
  'kpi', json_build_object('active_bonus', active_bonus, 'wr', ${money("wr")},
    'last_withdrawal', CASE WHEN last_withdrawal_amount IS NOT NULL AND last_withdrawal_status IS NOT NULL
      AND last_withdrawal_date IS NOT NULL THEN
      json_build_object('amount', ${money("last_withdrawal_amount")}, 'date', ${ts("last_withdrawal_date")},
        'status', CASE WHEN last_withdrawal_status = 'pending' THEN 'pending' ELSE 'completed' END) END,
    'last_deposit', CASE WHEN last_deposit_amount IS NOT NULL AND last_deposit_date IS NOT NULL THEN
      json_build_object('amount', ${money("last_deposit_amount")}, 'date', ${ts("last_deposit_date")}) END,
    'ltd', ${money("ltd")}, 'ltw', ${money("ltw")}, 'ltnc', ${money("ltnc")}),
  'segments', COALESCE(segments, ARRAY[]::text[]),
  'settings', json_build_object('marketing_email_subscription', marketing_email_subscription,
    'email_validation', email_validation, 'email_account_activation', email_account_activation,
    'marketing_sms_subscription', marketing_sms_subscription, 'sms_validation', sms_validation,
    'sms_account_activation', sms_account_activation, 'want_bonus', want_bonus))`;

const TRANSACTION_JSON_SQL = `json_build_object(
  'id', id, 'player_id', player_id, 'date', ${ts("date")}, 'event_type', event_type, 'event_name', event_name,
  'event_note', event_note, 'amount', ${money("amount")}, 'currency', currency, 'payment_method', payment_method,
  'created_by', created_by, 'created_at', ${ts("created_at")}, 'completed_at', ${ts("completed_at")},
  'status', status)`;

/** Rows of `SELECT <json> AS line, id FROM … ORDER BY id` to `file`, by COPY or, without it, in keyset pages. */
async function exportQuery(
  client: ClientBase,
  from: { json: string; table: string; where: string },
  file: string,
  copy: boolean,
): Promise<number> {
  const out = createWriteStream(file, "utf8");
  let rows = 0;
  const write = async (line: string) => {
    rows++;
    if (!out.write(`${line}\n`)) await once(out, "drain");
  };
  if (copy) {
    // COPY text format doubles backslashes; json_build_object never emits raw control characters.
    await copyOut(
      client,
      `COPY (SELECT ${from.json} FROM ${from.table} WHERE ${from.where} ORDER BY id) TO STDOUT`,
      (line) => write(line.replaceAll("\\\\", "\\")),
    );
  } else {
    let after = "";
    for (;;) {
      const page = await client.query<{ id: string; line: string }>(
        `SELECT id, ${from.json}::text AS line FROM ${from.table} WHERE (${from.where}) AND id > $1 ORDER BY id LIMIT 5000`,
        [after],
      );
      for (const r of page.rows) await write(r.line);
      const last = page.rows[page.rows.length - 1];
      if (!last) break;
      after = last.id;
    }
  }
  out.end();
  await once(out, "finish");
  return rows;
}

/** Writes the players (optionally only those matching `where`) and their transactions. */
export async function exportNdjson(
  client: ClientBase,
  files: { players: string; transactions: string },
  options: { where?: string; copy?: boolean } = {},
): Promise<{ players: number; transactions: number }> {
  const where = options.where ?? "true";
  const copy = options.copy ?? true;
  const players = await exportQuery(
    client,
    { json: PLAYER_JSON_SQL, table: "players", where },
    files.players,
    copy,
  );
  const transactions = await exportQuery(
    client,
    {
      json: TRANSACTION_JSON_SQL,
      table: "transactions",
      where: `player_id IN (SELECT id FROM players WHERE ${where})`,
    },
    files.transactions,
    copy,
  );
  return { players, transactions };
}
