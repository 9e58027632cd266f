/*
 * Balances and KPIs are derived from a player's transactions by one set-based statement, so the
 * profile always agrees with the history (seed, generator and import all call this).
 *
 *   cash_balance         = Σ amount of non-bonus transactions, completed ones plus pending withdrawals
 *                          (a requested withdrawal is reserved at once; a pending deposit is not yet received;
 *                          a failed or cancelled one moved no money and releases its reservation)
 *   bonus_balance        = Σ amount of completed bonus transactions (grants +, conversions/expiries −)
 *   total_balance        = cash_balance + bonus_balance
 *   pending_withdrawal   = Σ |amount| of pending withdrawals (status pending: not failed, not cancelled)
 *   withdrawable_balance = cash_balance when the player may withdraw (not blocked, withdrawal_status 'allowed'), else 0
 *   ltd / ltw            = lifetime completed deposits / withdrawals (positive sums); ltnc = ltd − ltw
 *   last_deposit         = newest completed deposit; last_withdrawal = newest withdrawal that is pending or
 *                          completed (amount, date, status; failed and cancelled ones are skipped: the spec's status has those two)
 *   active_bonus         = bonus_balance > 0; wr = wagering still required on it: 30 × the newest completed grant
 *                          − bets since (failed and cancelled bets wagered nothing)
 *   ftd_date             = date of the first completed deposit
 */
export const WAGERING_MULTIPLIER = 30;

/** The newest completed bonus grant (amount, date) of the player whose id is `playerId`: one index lookup. */
export const newestBonusGrantSql = (playerId: string) => `SELECT amount, date FROM transactions
    WHERE player_id = ${playerId} AND event_type = 'bonus' AND amount > 0 AND completed_at IS NOT NULL
    ORDER BY date DESC, id DESC LIMIT 1`;

/**
 * The KPIs read from one end of a player's history: the newest completed deposit (`ld`), the newest pending or
 * completed withdrawal (`lw`) and the newest completed bonus grant (`lb`), each an index lookup, for the row
 * `player` (an alias with an `id`). Shared by the full refresh below and the live consumer's per-batch refresh
 * (workers/ingest/apply-sql.ts), so the two cannot drift apart.
 */
export const lastTransactionLookupsSql = (player: string) => `
  LEFT JOIN LATERAL (SELECT amount, date FROM transactions
    WHERE player_id = ${player}.id AND event_type = 'deposit' AND completed_at IS NOT NULL
    ORDER BY date DESC, id DESC LIMIT 1) ld ON true
  LEFT JOIN LATERAL (SELECT id, amount, completed_at, date FROM transactions
    WHERE player_id = ${player}.id AND event_type = 'withdrawal' AND status IN ('pending', 'completed')
    ORDER BY date DESC, id DESC LIMIT 1) lw ON true
  LEFT JOIN LATERAL (${newestBonusGrantSql(`${player}.id`)}) lb ON true`;

/** The lookups' columns as lastTransactionLookupsSql names them, for the SELECT list. */
export const LAST_TRANSACTION_COLUMNS_SQL =
  "ld.amount AS ld_amount, ld.date AS ld_date, lw.id AS lw_id, lw.amount AS lw_amount, lw.date AS lw_date, lw.completed_at AS lw_completed, lb.date AS lb_date, lb.amount AS lb_amount";

/**
 * The sum (negative, or 0) of the bets that count toward wagering a grant dated `since` (pending or completed, from
 * that instant on) of the player `player`: an index-only range of transactions_wagering_bets_idx.
 */
export const wageringBetsSql = (player: string, since: string) =>
  `COALESCE((SELECT SUM(b.amount) FROM transactions b
      WHERE b.player_id = ${player} AND b.event_type = 'bet' AND b.status IN ('pending', 'completed')
        AND b.date >= ${since}), 0)`;

/**
 * The SET clauses of those KPIs and of `wr` (wagering still required on the newest grant), from a row `c` with
 * the lookups' columns, its `id` and its bonus balance in `bonusColumn`; `betsSinceGrant` is the SQL of the bets'
 * sum since c.lb_date (read here by default; the live consumer keeps it per player, workers/ingest/apply-sql.ts).
 */
export const lastTransactionKpisSetSql = (
  bonusColumn: string,
  betsSinceGrant = wageringBetsSql("c.id", "c.lb_date"),
) => `
  last_deposit_amount = c.ld_amount,
  last_deposit_date = c.ld_date,
  last_withdrawal_amount = -c.lw_amount,
  last_withdrawal_date = c.lw_date,
  last_withdrawal_status = CASE WHEN c.lw_id IS NULL THEN NULL WHEN c.lw_completed IS NULL THEN 'pending' ELSE 'completed' END,
  wr = CASE WHEN c.${bonusColumn} > 0 AND c.lb_date IS NOT NULL THEN GREATEST(
    ${WAGERING_MULTIPLIER} * c.lb_amount + ${betsSinceGrant}, 0) ELSE 0 END`;

export const REFRESH_PLAYER_AGGREGATES_SQL = `
WITH target AS (
  SELECT id, blocked, withdrawal_status FROM players WHERE $1::text[] IS NULL OR id = ANY($1::text[])
),
sums AS (
  SELECT p.id,
    COALESCE(SUM(t.amount) FILTER (WHERE t.event_type <> 'bonus' AND (t.status = 'completed' OR (t.event_type = 'withdrawal' AND t.status = 'pending'))), 0) AS cash,
    COALESCE(SUM(t.amount) FILTER (WHERE t.event_type = 'bonus' AND t.completed_at IS NOT NULL), 0) AS bonus,
    COALESCE(-SUM(t.amount) FILTER (WHERE t.event_type = 'withdrawal' AND t.status = 'pending'), 0) AS pending_w,
    COALESCE(SUM(t.amount) FILTER (WHERE t.event_type = 'deposit' AND t.completed_at IS NOT NULL), 0) AS ltd,
    COALESCE(-SUM(t.amount) FILTER (WHERE t.event_type = 'withdrawal' AND t.completed_at IS NOT NULL), 0) AS ltw,
    MIN(t.date) FILTER (WHERE t.event_type = 'deposit' AND t.completed_at IS NOT NULL) AS ftd
  FROM target p LEFT JOIN transactions t ON t.player_id = p.id
  GROUP BY p.id
),
computed AS (
  SELECT s.*, ${LAST_TRANSACTION_COLUMNS_SQL}
  FROM sums s${lastTransactionLookupsSql("s")}
)
UPDATE players p SET
  cash_balance = c.cash,
  bonus_balance = c.bonus,
  total_balance = c.cash + c.bonus,
  pending_withdrawal = c.pending_w,
  withdrawable_balance = CASE WHEN NOT p.blocked AND p.withdrawal_status = 'allowed' THEN GREATEST(c.cash, 0) ELSE 0 END,
  ltd = c.ltd,
  ltw = c.ltw,
  ltnc = c.ltd - c.ltw,
  ftd_date = c.ftd,
  active_bonus = c.bonus > 0,${lastTransactionKpisSetSql("bonus")},
  -- The live consumer's running sum of bets since the grant (apply-sql.ts): unknown after a full refresh, so its
  -- next batch of this player reads it whole.
  wr_grant_date = NULL,
  wr_bets = 0
FROM computed c
WHERE p.id = c.id
`;
