import type { Pool, PoolClient } from "pg";
import { REFRESH_PLAYER_AGGREGATES_SQL } from "../platform/db/refresh-player-aggregates.ts";
import { type DemoDataset, generateDemoData } from "./demo-data/players.ts";

const PLAYER_COLUMNS = `id text, name text, email text, phone text, currency text, language text,
  registration_date timestamptz, last_login timestamptz, kyc_status kyc_status, withdrawal_status text,
  affiliate_name text, affiliate_source text, vip_manager text, blocked boolean, segments text[],
  marketing_email_subscription boolean, email_validation boolean, email_account_activation text,
  marketing_sms_subscription boolean, sms_validation boolean, sms_account_activation text, want_bonus boolean`;

const TRANSACTION_COLUMNS = `id text, player_id text, date timestamptz, event_type event_type, event_name text,
  event_note text, amount numeric, currency text, payment_method text, created_by text,
  created_at timestamptz, completed_at timestamptz, status transaction_status`;

const names = (columns: string) =>
  columns
    .split(",")
    .map((c) => c.trim().split(/\s+/)[0])
    .join(", ");

async function insertJson(client: PoolClient, table: string, columns: string, rows: object[]): Promise<void> {
  const BATCH = 5_000;
  for (let i = 0; i < rows.length; i += BATCH) {
    // One statement per batch: json_to_recordset turns a JSON array into typed rows server-side.
    await client.query(
      `INSERT INTO ${table} (${names(columns)}) SELECT ${names(columns)} FROM json_to_recordset($1::json) AS x(${columns})`,
      [JSON.stringify(rows.slice(i, i + BATCH))],
    );
  }
}

export async function loadDataset(pool: Pool, data: DemoDataset): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("TRUNCATE transactions, players");
    await insertJson(client, "players", PLAYER_COLUMNS, data.players);
    await insertJson(client, "transactions", TRANSACTION_COLUMNS, data.transactions);
    await client.query(REFRESH_PLAYER_AGGREGATES_SQL, [null]);
    await client.query("COMMIT");
    await client.query("ANALYZE players");
    await client.query("ANALYZE transactions");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}

/** Replaces all players and transactions with the deterministic demo data set. */
export async function seedDemoData(pool: Pool): Promise<{ players: number; transactions: number }> {
  const data = generateDemoData();
  await loadDataset(pool, data);
  return { players: data.players.length, transactions: data.transactions.length };
}

export async function isEmpty(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM players");
  return rows[0]?.n === "0";
}
