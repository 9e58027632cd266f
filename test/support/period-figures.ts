/**
 * A summary period's figures as the API writes them (money as digit strings) when the period holds no completed
 * transaction: zeros, no averages, no activity. Tests spell out only what differs from it.
 */
export const EMPTY_PERIOD_FIGURES = {
  deposits: { count: 0, sum: "0", average: null },
  withdrawals: { count: 0, sum: "0", average: null },
  net_deposits: "0",
  bets: { count: 0, sum: "0" },
  wins: { count: 0, sum: "0" },
  gross_gaming_revenue: "0",
  bonus_granted: { count: 0, sum: "0" },
  first_activity: null,
  last_activity: null,
};
