import "server-only";
import type { PlayerSummary, TransactionMatch } from "@/features/players/schema/player";
import { getPrisma } from "@/platform/db/client";
import { Prisma, type PrismaClient } from "@/platform/db/generated/client";
import { emailTerm, escapeLike, nameWords, phoneDigitsTerm } from "./contact-terms.ts";
import { type PlayerSummaryRow, toPlayerSummary } from "./map-player.ts";

export interface SearchPlayersOptions {
  /** Matched against id, name and contact data (see `contact`); every player without it. */
  q?: string | undefined;
  limit: number;
  offset: number;
  /**
   * `partial` (default; callers who may see contact data): an e-mail address matches in part, any case.
   * `exact` (callers who see it masked): an e-mail address or phone number must be typed in full; nothing
   * else of a contact field matches, so a search never reveals one character at a time.
   */
  contact?: "partial" | "exact" | undefined;
  vipManager?: string | undefined;
  /** Only players whose profile changed at or after this instant (`updated_at`, any field, figures included). */
  updatedSince?: Date | undefined;
}

export interface SearchPlayersResult {
  players: PlayerSummary[];
  total: number;
  /** Transactions whose id is q in any case, with their player: the lookup opens one in its player's table. */
  transactions: TransactionMatch[];
}

const contains = (term: string) => `%${escapeLike(term)}%`;

/**
 * What q matches, as one SQL condition, each arm served by an index of the lookup's migration
 * (20261126030000_player_lookup_indexes): the id in part (trigram on lower(id)), every word of the name in
 * part without accents or case (trigram on fold_search_text(name)), the e-mail address (in part with
 * `contact: partial`, else only whole: btree on lower(email)), the phone number whole, as digits.
 */
function matchCondition(q: string, contact: "partial" | "exact"): Prisma.Sql {
  const arms: Prisma.Sql[] = [Prisma.sql`lower(p.id) LIKE lower(${contains(q)})`];
  const words = nameWords(q);
  if (words.length > 0) {
    arms.push(
      Prisma.join(
        words.map((w) => Prisma.sql`fold_search_text(p.name) LIKE fold_search_text(${contains(w)})`),
        " AND ",
        "(",
        ")",
      ),
    );
  }
  const email = emailTerm(q);
  if (contact === "partial") arms.push(Prisma.sql`lower(p.email) LIKE lower(${contains(q)})`);
  else if (email) arms.push(Prisma.sql`lower(p.email) = ${email}`);
  const phone = phoneDigitsTerm(q);
  if (phone) arms.push(Prisma.sql`regexp_replace(p.phone, '\\D', '', 'g') = ${phone}`);
  return Prisma.join(arms, " OR ", "(", ")");
}

function whereClause(options: SearchPlayersOptions): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  if (options.q) conditions.push(matchCondition(options.q, options.contact ?? "partial"));
  if (options.vipManager !== undefined) conditions.push(Prisma.sql`p.vip_manager = ${options.vipManager}`);
  if (options.updatedSince) conditions.push(Prisma.sql`p.updated_at >= ${options.updatedSince}`);
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}

/** A page of matching players, ordered by id, with the last activity: the newer of last login and last transaction. */
async function playerPage(options: SearchPlayersOptions, where: Prisma.Sql, db: PrismaClient) {
  return db.$queryRaw<PlayerSummaryRow[]>`
    SELECT p.id, p.name, p.email, p.phone, p.currency, p.language,
      p.registration_date AS "registrationDate", p.last_login AS "lastLogin",
      p.total_balance AS "totalBalance", p.kyc_status::text AS "kycStatus",
      p.withdrawal_status AS "withdrawalStatus", p.blocked, p.vip_manager AS "vipManager",
      GREATEST(p.last_login, (
        SELECT t.date FROM transactions t WHERE t.player_id = p.id ORDER BY t.date DESC, t.id DESC LIMIT 1
      )) AS "lastActivity"
    FROM players p
    ${where}
    ORDER BY p.id
    LIMIT ${options.limit} OFFSET ${options.offset}`;
}

async function playerCount(where: Prisma.Sql, db: PrismaClient): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM players p ${where}`;
  return row?.n ?? 0;
}

/**
 * Transactions whose id is q in any case (the index on lower(id)); with `vipManager`, only that manager's players'.
 * The matches are read first, fenced (OFFSET 0), then ordered: written as one join ordered by t.id with LIMIT,
 * the planner may walk the primary key in id order and filter every row when it has no statistics for the
 * expression index (until ANALYZE: 24 s on 10M transactions, docs/performance.md). Each match's player is one
 * lookup (LIMIT 1 keeps it a per-row probe, never a scan of all players hashed for the join).
 */
async function transactionMatches(
  q: string,
  vipManager: string | undefined,
  db: PrismaClient,
): Promise<TransactionMatch[]> {
  const mine = vipManager === undefined ? Prisma.empty : Prisma.sql`AND p.vip_manager = ${vipManager}`;
  const rows = await db.$queryRaw<
    { id: string; player_id: string; player_name: string; date: Date; event_type: string }[]
  >`
    SELECT m.id, m.player_id, p.name AS player_name, m.date, m.event_type::text AS event_type
    FROM (
      SELECT t.id, t.player_id, t.date, t.event_type FROM transactions t
      WHERE lower(t.id) = lower(${q.trim()})
      OFFSET 0
    ) m
    CROSS JOIN LATERAL (SELECT p.name FROM players p WHERE p.id = m.player_id ${mine} LIMIT 1) p
    ORDER BY m.id
    LIMIT 5`;
  return rows.map((r) => ({
    id: r.id,
    player_id: r.player_id,
    player_name: r.player_name,
    date: r.date.toISOString(),
    event_type: r.event_type as TransactionMatch["event_type"],
  }));
}

/**
 * Players matching q (see matchCondition), ordered by id, with the exact total; all players without q. Also
 * the transactions whose id is q, so an id read out on the phone finds its player. `vipManager` keeps only that
 * manager's players (and their transactions).
 */
export async function searchPlayers(
  options: SearchPlayersOptions,
  db: PrismaClient = getPrisma(),
): Promise<SearchPlayersResult> {
  const where = whereClause(options);
  const q = options.q?.trim();
  const [rows, total, transactions] = await Promise.all([
    playerPage(options, where, db),
    playerCount(where, db),
    q && !/\s/.test(q) ? transactionMatches(q, options.vipManager, db) : Promise.resolve([]),
  ]);
  return { players: rows.map(toPlayerSummary), total, transactions };
}
