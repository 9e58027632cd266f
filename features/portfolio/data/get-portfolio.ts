import "server-only";
import type { Portfolio, PortfolioFlagRules } from "@/features/portfolio/schema/portfolio";
import { getPrisma } from "@/platform/db/client";
import { Prisma, type PrismaClient } from "@/platform/db/generated/client";
import { stringifyJson } from "@/platform/http/json";
import { PORTFOLIO_FLAGS } from "@/platform/schemas/enums";
import { JsonText } from "@/platform/schemas/json-text";
import { type BookPart, mergeBookParts } from "./merge-book-parts.ts";
import {
  type BookState,
  type KeptBook,
  type KeptPlayer,
  type PortfolioBookCache,
  playersToCompute,
} from "./portfolio-book-cache.ts";

const DAY = 86_400_000;

export interface GetPortfolioOptions {
  /** The profiles' `vip_manager` value, matched exactly. */
  manager: string;
  /** The instant the windows end at; its UTC day is the portfolio's day. */
  asOf: Date;
  rules: PortfolioFlagRules;
  /**
   * At most how many statements compute the book at once, each a share of its players on its own connection
   * (PORTFOLIO_BOOK_PARTS). A book of 1,000 costs one statement ~40 ms of one core (docs/performance.md, "The
   * portfolio in parts"); two, each half the book, use two cores and answer in about half the time. The body is the
   * same for any number.
   */
  parts: number;
  /**
   * The books this process keeps (PORTFOLIO_KEPT_BOOKS): with it, a re-read computes only the players the change
   * feed names since, and those whose figures the clock has moved. Without it, the whole book is computed.
   */
  cache?: PortfolioBookCache;
}

/** Which players a statement computes: a manager's book, or the named players (the kept book's stale ones). */
type BookSelection = { manager: string } | { ids: readonly string[] };

/** The portfolio's day windows, as UTC dates (`YYYY-MM-DD`), each inclusive. */
export interface PortfolioDays {
  /** The portfolio's day (the UTC day of asOf). */
  today: string;
  /** First day of the last 30 days (today − 29); the previous 30 days are [prev30, last30). */
  last30: string;
  prev30: string;
  /** First day of the last 7 days (today − 6); the usual week's 12 weeks are [usual, last7). */
  last7: string;
  /** The UTC day of asOf − 7 days: stats days from it may hold the big-withdrawal window's withdrawals. */
  week: string;
  usual: string;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function portfolioDays(asOf: Date): PortfolioDays {
  const today = Math.floor(asOf.getTime() / DAY) * DAY;
  return {
    today: isoDay(today),
    last30: isoDay(today - 29 * DAY),
    prev30: isoDay(today - 59 * DAY),
    last7: isoDay(today - 6 * DAY),
    week: isoDay(Math.floor((asOf.getTime() - 7 * DAY) / DAY) * DAY),
    usual: isoDay(today - (6 + 84) * DAY),
  };
}

/**
 * One player's 91 days (what the figures and the usual week need) from the per-day stats, aggregated to exactly
 * one row: the completed flows, the last day with any transaction and with a completed deposit, and whether a
 * withdrawal is dated in the big-withdrawal window. One index range on transaction_daily_stats_window_idx
 * (player, day), index-only: every event type counts for the last day, so there is no type condition. Per player
 * (a LATERAL, not a GROUP BY over the book): the planner
 * then knows one row per player and the statement's estimated cost stays far below PostgreSQL's JIT threshold (a
 * grouped join was estimated at 40× its rows, and JIT compilation alone took 11 s for a book of 1,000).
 */
function recentSql(d: PortfolioDays): Prisma.Sql {
  const sum = (type: string, from: string, until?: string) =>
    Prisma.sql`COALESCE(sum(s.completed_amount) FILTER (WHERE s.event_type = ${Prisma.raw(`'${type}'`)}
      AND s.day >= ${from}::date ${until ? Prisma.sql`AND s.day < ${until}::date` : Prisma.empty}), 0)`;
  return Prisma.sql`
    SELECT ${sum("deposit", d.last30)} AS dep, ${sum("deposit", d.prev30, d.last30)} AS dep_prev,
           ${sum("withdrawal", d.last30)} AS wd, ${sum("withdrawal", d.prev30, d.last30)} AS wd_prev,
           ${sum("bet", d.last30)} - ${sum("win", d.last30)} AS ggr,
           ${sum("bet", d.prev30, d.last30)} - ${sum("win", d.prev30, d.last30)} AS ggr_prev,
           ${sum("deposit", d.last7)} AS dep7, ${sum("deposit", d.usual, d.last7)} AS dep_usual,
           max(s.day) AS last_day,
           max(s.day) FILTER (WHERE s.event_type = 'deposit' AND s.completed_n > 0) AS last_deposit_day,
           count(*) FILTER (WHERE s.event_type = 'withdrawal' AND s.day >= ${d.week}::date) AS week_withdrawal_days
    FROM transaction_daily_stats s
    WHERE s.player_id = b.id AND s.day >= ${d.usual}::date AND s.day <= ${d.today}::date`;
}

/**
 * One player's pending withdrawals up to asOf: count, sum of absolute amounts, the oldest (one row, also for none).
 * An index-only range of the partial index holding only pending withdrawals (transactions_pending_withdrawals_idx,
 * player_id and date): per player, so the cost follows the book, not the platform's pending withdrawals (read
 * whole and grouped, 4,703 rows at 10M transactions for a book holding a few hundred).
 */
function pendingSql(asOf: Date): Prisma.Sql {
  return Prisma.sql`
    SELECT count(*)::int AS n, sum(abs(t.amount)) AS total, min(t.date) AS oldest
    FROM transactions t
    WHERE t.player_id = b.id AND t.event_type = 'withdrawal' AND t.status = 'pending'
      AND t.date <= ${asOf}::timestamptz`;
}

/**
 * A figure's current and previous values and their change, computed in numeric (exact) and written in canonical
 * form by trim_scale (no trailing zeros: "65", not "65.00000000"), so the rows need no arithmetic or
 * normalization in JavaScript (ExactNumber takes canonical text as it is).
 */
function figureSql(name: string, current: string, previous: string): Prisma.Sql {
  return Prisma.raw(
    `trim_scale(${current})::text AS ${name}, trim_scale(${previous})::text AS ${name}_prev, ` +
      `trim_scale((${current}) - (${previous}))::text AS ${name}_change`,
  );
}

/**
 * One statement for one part of the book (bookPartSql): the book (players_vip_manager_id_idx), per player its
 * 91 days from the stats (recentSql), and probes only where those days cannot answer (COALESCE and CASE evaluate
 * them lazily): the last transaction or completed deposit before the 91 days (the stats' indexes, backwards), the
 * week's largest withdrawal when the stats show a withdrawal that week (the type/date index), and the pending
 * withdrawals (pendingSql). The figures and flags (figuresSql) and each player's JSON (PLAYER_JSON), one per
 * line, follow.
 */
export function portfolioSql(
  options: GetPortfolioOptions,
  d: PortfolioDays,
  part: { index: number; count: number } = { index: 0, count: 1 },
  selection: BookSelection = { manager: options.manager },
): Prisma.Sql {
  const { asOf, rules } = options;
  const currencies = rules.big_withdrawal_amounts.map((a) => a.currency);
  const amounts = rules.big_withdrawal_amounts.map((a) => a.amount.digits);
  return Prisma.sql`
    WITH limits AS (
      SELECT * FROM unnest(${currencies}::text[], ${amounts}::numeric[]) AS l(currency, amount)
    ), rows AS MATERIALIZED (
      -- Materialized: the final SELECT reads each column more than once; inlined, every probe ran as often.
      SELECT b.id, b.name, b.currency, b.total_balance, b.blocked, b.kyc_status, b.withdrawal_status, b.segments,
             f.dep, f.dep_prev, f.wd, f.wd_prev, f.ggr, f.ggr_prev, f.dep7, f.dep_usual,
             ${d.today}::date - COALESCE(f.last_day, (
               SELECT s.day FROM transaction_daily_stats s
               WHERE s.player_id = b.id AND s.day < ${d.usual}::date ORDER BY s.day DESC LIMIT 1
             )) AS days_since_activity,
             ${d.today}::date - COALESCE(f.last_deposit_day, (
               SELECT s.day FROM transaction_daily_stats s
               WHERE s.player_id = b.id AND s.event_type = 'deposit' AND s.completed_n > 0
                 AND s.day < ${d.usual}::date
               ORDER BY s.day DESC LIMIT 1
             )) AS days_since_deposit,
             pw.n AS pending_n, COALESCE(pw.total, 0) AS pending_sum, pw.oldest AS pending_oldest,
             CASE WHEN f.week_withdrawal_days > 0 THEN (
               -- By date (the type/date index: the week's few rows), not by amount over all the player's
               -- withdrawals: OFFSET 0 keeps the planner from folding the order away. Pending or completed
               -- only: a failed or cancelled request moved no money and reserves none.
               SELECT max(abs(w.amount)) FROM (
                 SELECT t.amount FROM transactions t
                 WHERE t.player_id = b.id AND t.event_type = 'withdrawal'
                   AND t.date > ${asOf}::timestamptz - interval '7 days' AND t.date <= ${asOf}::timestamptz
                   AND t.status IN ('pending', 'completed')
                 ORDER BY t.date DESC OFFSET 0
               ) w
             ) END AS largest_wd_7d,
             CASE WHEN f.week_withdrawal_days > 0 THEN (
               SELECT min(t.date) FROM transactions t
               WHERE t.player_id = b.id AND t.event_type = 'withdrawal'
                 AND t.date > ${asOf}::timestamptz - interval '7 days' AND t.date <= ${asOf}::timestamptz
             ) END AS week_oldest_wd,
             (
               -- A withdrawal dated after asOf enters the 7 days (and the pending ones) when the clock reaches it.
               SELECT t.date FROM transactions t
               WHERE t.player_id = b.id AND t.event_type = 'withdrawal' AND t.date > ${asOf}::timestamptz
               ORDER BY t.date LIMIT 1
             ) AS next_wd,
             l.amount AS big_amount
      FROM players b
      CROSS JOIN LATERAL (${recentSql(d)}) f
      CROSS JOIN LATERAL (${pendingSql(asOf)}) pw
      LEFT JOIN limits l ON l.currency = upper(b.currency)
      WHERE ${selectionSql(selection)} AND ${bookPartSql(part)}
    ), book AS (${figuresSql(options, d)})
    SELECT COALESCE(string_agg(${PLAYER_JSON}, E'\\n' ORDER BY id COLLATE "C"), '') AS players,
           COALESCE(array_agg(id ORDER BY id COLLATE "C"), '{}') AS ids,
           COALESCE(array_agg(valid_until ORDER BY id COLLATE "C"), '{}') AS valid_until
    FROM book`;
}

function selectionSql(selection: BookSelection): Prisma.Sql {
  return "manager" in selection
    ? Prisma.sql`b.vip_manager = ${selection.manager}`
    : Prisma.sql`b.id = ANY(${[...selection.ids]}::text[])`;
}

/**
 * The part's players: a hash of the id splits the book, so each player is in exactly one part whatever each
 * statement's snapshot holds. The players come one per line (JSON text holds no raw newline).
 */
function bookPartSql({ index, count }: { index: number; count: number }): Prisma.Sql {
  return count <= 1
    ? Prisma.sql`true`
    : Prisma.sql`(hashtext(b.id) & 2147483647) % ${count}::int = ${index}::int`;
}

/**
 * Each player's figures as canonical text (numeric, trim_scale: "65", not "65.00000000") and the flags, decided
 * here in numeric.
 */
function figuresSql({ asOf, rules }: GetPortfolioOptions, d: PortfolioDays): Prisma.Sql {
  return Prisma.sql`
    SELECT id, name, currency, trim_scale(total_balance)::text AS total_balance, blocked,
           kyc_status::text AS kyc_status, withdrawal_status, segments,
           ${figureSql("dep", "COALESCE(dep, 0)", "COALESCE(dep_prev, 0)")},
           ${figureSql("wd", "COALESCE(wd, 0)", "COALESCE(wd_prev, 0)")},
           ${figureSql("net", "COALESCE(dep, 0) - COALESCE(wd, 0)", "COALESCE(dep_prev, 0) - COALESCE(wd_prev, 0)")},
           ${figureSql("ggr", "COALESCE(ggr, 0)", "COALESCE(ggr_prev, 0)")},
           days_since_deposit, days_since_activity, pending_n, trim_scale(pending_sum)::text AS pending_sum,
           pending_oldest, trim_scale(largest_wd_7d)::text AS largest_wd_7d,
           COALESCE(days_since_activity >= ${rules.churn_days}::int, false) AS churn_risk,
           COALESCE(largest_wd_7d > big_amount
             OR largest_wd_7d * 100 > ${rules.big_withdrawal_percent}::int * (total_balance + largest_wd_7d), false)
             AS big_withdrawal,
           COALESCE(pending_oldest < ${asOf}::timestamptz - interval '24 hours', false) AS pending_withdrawal_24h,
           COALESCE(dep_usual > 0 AND dep7 * 12 > ${rules.deposit_spike_factor}::int * dep_usual, false)
             AS deposit_spike,
           ${validUntilSql(asOf, d)} AS valid_until
    FROM rows`;
}

/**
 * The first instant (ms, rounded down) at which the clock alone may change the player's row: the next UTC
 * midnight (every day window), the oldest withdrawal of the 7 days leaving them, the next withdrawal dated after
 * asOf entering them (and the pending ones), the oldest pending withdrawal turning older than 24 h. Until then
 * only a change to the player's data changes the row (the change feed says which: portfolio-book-cache.ts).
 */
function validUntilSql(asOf: Date, d: PortfolioDays): Prisma.Sql {
  return Prisma.sql`floor(extract(epoch FROM LEAST(
      (${d.today}::date + 1)::timestamp AT TIME ZONE 'UTC',
      week_oldest_wd + interval '7 days',
      next_wd,
      CASE WHEN pending_oldest + interval '24 hours' >= ${asOf}::timestamptz
        THEN pending_oldest + interval '24 hours' END
    )) * 1000)::float8`;
}

/**
 * The JSON text of one object from its keys and, for each, an SQL expression giving the value's JSON text, in
 * the schema's order. The keys are this file's constants.
 */
function jsonObject(fields: readonly (readonly [key: string, json: string])[]): string {
  const members = fields.map(([key, json], i) => `'${i === 0 ? "{" : ","}"${key}":' || ${json}`);
  return `${members.join(" || ")} || '}'`;
}

const text = (column: string) => `to_json(${column})::text`;
const orNull = (json: string) => `COALESCE(${json}, 'null')`;
const change = (name: string) =>
  jsonObject([
    ["current", name],
    ["previous", `${name}_prev`],
    ["change", `${name}_change`],
  ]);
/** An instant as toISOString writes it (milliseconds, truncated as JavaScript's Date holds them, and Z). */
const isoInstant = (column: string) =>
  `to_json(to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text`;

/**
 * One player of the body (PortfolioPlayer) as JSON text, written by the statement: for a book of 1,000 the
 * app's decoding of 30 columns per row and writing 566 KB of JSON cost more than the statement itself (docs/
 * performance.md, "The portfolio's body from the statement"). Numbers are the canonical text of the figures.
 */
const PLAYER_JSON = Prisma.raw(
  jsonObject([
    ["id", text("id")],
    ["name", text("name")],
    ["currency", text("currency")],
    ["total_balance", "total_balance"],
    ["blocked", "blocked::text"],
    ["kyc_status", text("kyc_status")],
    ["withdrawal_status", orNull(text("withdrawal_status"))],
    ["segments", text("segments")],
    ["deposits", change("dep")],
    ["withdrawals", change("wd")],
    ["net_deposits", change("net")],
    ["ggr", change("ggr")],
    ["days_since_last_deposit", orNull("days_since_deposit::text")],
    ["days_since_last_activity", orNull("days_since_activity::text")],
    [
      "pending_withdrawals",
      jsonObject([
        ["count", "pending_n::text"],
        ["amount", "pending_sum"],
        ["oldest", orNull(isoInstant("pending_oldest"))],
      ]),
    ],
    ["largest_withdrawal_7d", orNull("largest_wd_7d")],
    [
      "flags",
      text(
        `array_remove(ARRAY[${PORTFOLIO_FLAGS.map((f) => `CASE WHEN ${f} THEN '${f}' END`).join(", ")}]::text[], NULL)`,
      ),
    ],
  ]),
);

export interface PortfolioAnswer {
  /** The body of GET /portfolio: JSON text the statement wrote (canonical numbers, the schema's key order). */
  body: JsonText<Portfolio>;
  /** The book's player ids, in the body's order (the audit row's result). */
  playerIds: string[];
  /** How many statements computed figures (0: every row was kept and current). */
  parts: number;
  /** How many players' figures were computed for this answer (the others' were kept). */
  computed: number;
}

/** Books this process is computing now (getPortfolio). */
let computing = 0;

/** Fewer players than this per statement do not pay for another statement's parse and plan. */
const PLAYERS_PER_PART = 250;

/**
 * How many parts a book gets: `parts` when no other book is being computed here, else one. Split, each request
 * costs more in all (every part plans its statement): at 32 requests at once 9 % fewer of them were answered.
 * The split pays only for a request that has the cores to itself, and for a few hundred players or more.
 */
function partsNow(parts: number, players: number | undefined): number {
  if (computing > 0) return 1;
  const most = players === undefined ? parts : Math.ceil(players / PLAYERS_PER_PART);
  return Math.max(1, Math.min(Math.floor(parts), most));
}

/** Computed players (BookPart) and how many statements computed them. */
interface ComputedBook extends BookPart {
  parts: number;
}

/** The selection's players computed in up to `parts` statements at once (partsNow), merged by id. */
async function computeBook(
  options: GetPortfolioOptions,
  days: PortfolioDays,
  selection: BookSelection,
  db: PrismaClient,
): Promise<ComputedBook> {
  const count = partsNow(options.parts, "ids" in selection ? selection.ids.length : undefined);
  computing += 1;
  let parts: BookPart[];
  try {
    parts = await Promise.all(
      Array.from({ length: count }, async (_, index): Promise<BookPart> => {
        const sql = portfolioSql(options, days, { index, count }, selection);
        const [part] = await db.$queryRaw<{ players: string; ids: string[]; valid_until: number[] }[]>(sql);
        return {
          players: part?.players ? part.players.split("\n") : [],
          ids: part?.ids ?? [],
          validUntil: part?.valid_until ?? [],
        };
      }),
    );
  } finally {
    computing -= 1;
  }
  return { ...mergeBookParts(parts), parts: count };
}

/**
 * In one snapshot: the database's identity, the change feed's last committed position, the book's ids and those
 * of its players the feed names after the kept tail (one probe of changes_player_position_idx each). Positions are
 * given in commit order under a lock, so a snapshot that sees a position sees every one before it
 * (prisma/migrations/20261126070000_change_feed). A `reset` (a reload: the entry without a player) or no kept
 * tail: "all".
 */
async function readBookState(
  manager: string,
  keptTail: bigint | undefined,
  db: PrismaClient,
): Promise<BookState> {
  const after = (keptTail ?? 0n).toString();
  const [row] = await db.$queryRaw<
    { database: string; tail: string; ids: string[]; reset: boolean; changed: string[] }[]
  >(Prisma.sql`
    WITH book AS MATERIALIZED (
      SELECT id FROM players WHERE vip_manager = ${manager}
    )
    SELECT (SELECT oid::text FROM pg_database WHERE datname = current_database()) AS database,
           (SELECT COALESCE(max(position), 0)::text FROM changes) AS tail,
           ARRAY(SELECT id FROM book ORDER BY id COLLATE "C") AS ids,
           EXISTS (SELECT 1 FROM changes WHERE player_id IS NULL AND position > ${after}::bigint) AS reset,
           ARRAY(
             SELECT b.id FROM book b
             WHERE ${keptTail !== undefined}
               AND EXISTS (SELECT 1 FROM changes c WHERE c.player_id = b.id AND c.position > ${after}::bigint)
           ) AS changed`);
  if (!row) throw new Error("the book's state query returned no row");
  const all = keptTail === undefined || row.reset;
  return {
    database: row.database,
    tail: BigInt(row.tail),
    ids: row.ids,
    changed: all ? "all" : new Set(row.changed),
  };
}

/** The body's text before the players (the response's own fields), and after them. */
function bodyHead(options: GetPortfolioOptions): string {
  return (
    `{"manager":${stringifyJson(options.manager)},"as_of":${stringifyJson(options.asOf.toISOString())},` +
    `"flag_rules":${stringifyJson(options.rules)},"players":[`
  );
}
const BODY_TAIL = "]}";

/**
 * A VIP manager's book: every player whose `vip_manager` is `manager`, ordered by id (byte order), with the last
 * 30 UTC days' completed deposits, withdrawals, net deposits and GGR against the 30 days before, days since the
 * last deposit and the last transaction, pending withdrawals and the flags (docs/decisions.md, "The portfolio").
 * An unknown manager has an empty book (no error: a name is not a secret, and the caller's scope was checked
 * before). With a cache, only the players whose rows are not kept and current are computed (keptBook).
 */
export async function getPortfolio(
  options: GetPortfolioOptions,
  db: PrismaClient = getPrisma(),
): Promise<PortfolioAnswer> {
  const days = portfolioDays(options.asOf);
  if (options.cache) return keptBook(options, options.cache, days, db);
  const book = await computeBook(options, days, { manager: options.manager }, db);
  return {
    body: new JsonText(`${bodyHead(options)}${book.players.join(",")}${BODY_TAIL}`),
    playerIds: book.ids,
    parts: book.parts,
    computed: book.ids.length,
  };
}

/**
 * The book through the cache: its state now (readBookState), the players to compute (playersToCompute). With
 * none to compute and the same players, the kept book answers as it is; else it is rebuilt (rebuildBook). The
 * book is kept again as answered.
 */
async function keptBook(
  options: GetPortfolioOptions,
  cache: PortfolioBookCache,
  days: PortfolioDays,
  db: PrismaClient,
): Promise<PortfolioAnswer> {
  const kept = cache.get(options.manager);
  const state = await readBookState(options.manager, kept?.tail, db);
  const now = { rules: stringifyJson(options.rules), day: days.today, asOf: options.asOf.getTime() };
  const stale = playersToCompute(kept, state, now);
  const rebuilt =
    kept !== undefined && stale.length === 0 && sameIds(kept.ids, state.ids)
      ? { book: { ...kept, ...now, tail: state.tail }, parts: 0 }
      : await rebuildBook(options, days, db, { kept, state, stale, now });
  const book: KeptBook = rebuilt.book;
  cache.set(options.manager, book);
  return {
    // In pieces: the kept players' bytes are sent as they are (JsonText).
    body: new JsonText([encoder.encode(bodyHead(options)), book.joined, encoder.encode(BODY_TAIL)]),
    playerIds: book.ids,
    parts: rebuilt.parts,
    computed: stale.length,
  };
}

/**
 * The book from the stale players computed by id and the others' kept rows, in the state's order: the book is the
 * first statement's (a player who left it since is still listed, with figures as new as the second's). A player
 * deleted in between is left out, as the second no longer finds them.
 */
async function rebuildBook(
  options: GetPortfolioOptions,
  days: PortfolioDays,
  db: PrismaClient,
  {
    kept,
    state,
    stale,
    now,
  }: {
    kept: KeptBook | undefined;
    state: BookState;
    stale: string[];
    now: Pick<KeptBook, "rules" | "day" | "asOf">;
  },
): Promise<{ book: KeptBook; parts: number }> {
  const recompute = new Set(stale);
  const fresh = stale.length > 0 ? await computeBook(options, days, { ids: stale }, db) : undefined;
  const computed = new Map<string, KeptPlayer>();
  fresh?.ids.forEach((id, i) => {
    computed.set(id, { json: fresh.players[i] ?? "", validUntil: fresh.validUntil[i] ?? 0 });
  });
  const players = new Map<string, KeptPlayer>();
  for (const id of state.ids) {
    const player = recompute.has(id) ? computed.get(id) : kept?.players.get(id);
    if (player) players.set(id, player);
  }
  const ids = [...players.keys()];
  const book: KeptBook = {
    ...now,
    database: state.database,
    tail: state.tail,
    ids,
    players,
    joined: encoder.encode(ids.map((id) => players.get(id)?.json).join(",")),
  };
  return { book, parts: fresh?.parts ?? 0 };
}

const encoder = new TextEncoder();

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);
