/* Response examples of the document's operations: real answers of the demo data, as the API sends them. */

/** GET /players/P000007 with `players:pii` (without it, `email` and `phone` are masked). */
export const profileExample = {
  id: "P000007",
  name: "Mei Tanaka",
  email: "mei.tanaka7@example.com",
  phone: "+81 908006861",
  currency: "JPY",
  language: "Japanese",
  registration_date: "2024-08-13T20:37:47.868Z",
  ftd_date: "2024-08-13T23:53:14.806Z",
  last_login: "2026-11-20T12:00:00.000Z",
  kyc_status: "in_review",
  withdrawal_status: "on_hold",
  affiliate_name: "StreamerNet",
  affiliate_source: "social",
  vip_manager: "Portfolio Bench",
  blocked: false,
  balances: {
    total_balance: 19682,
    cash_balance: 19682,
    bonus_balance: 0,
    withdrawable_balance: 0,
    pending_withdrawal: 631712,
  },
  kpi: {
    active_bonus: false,
    wr: 0,
    last_withdrawal: { amount: 110322, date: "2026-11-17T08:54:26.641Z", status: "pending" },
    last_deposit: { amount: 120125, date: "2026-11-17T01:53:11.440Z" },
    ltd: 39377880,
    ltw: 31653702,
    ltnc: 7724178,
  },
  segments: ["high_roller", "sports_bettor"],
  settings: {
    marketing_email_subscription: false,
    email_validation: true,
    email_account_activation: "activated",
    marketing_sms_subscription: false,
    sms_validation: false,
    sms_account_activation: "not_sent",
    want_bonus: true,
  },
  updated_at: "2026-11-25T21:03:12.418Z",
};

/** GET /players?ids=P000007,P999999 without `players:pii`: one profile (masked), one id that is no player. */
export const playerBatchExample = {
  players: [{ ...profileExample, email: "m***@example.com", phone: "+81 ••• ••• 61" }],
  missing: ["P999999"],
};

/** GET /players?q=P000007&limit=1 without `players:pii`. */
export const playerSearchExample = {
  players: [
    {
      id: "P000007",
      name: "Mei Tanaka",
      email: "m***@example.com",
      phone: "+81 ••• ••• 61",
      currency: "JPY",
      language: "Japanese",
      registration_date: "2024-08-13T20:37:47.868Z",
      last_login: "2026-11-20T12:00:00.000Z",
      last_activity: "2026-11-20T12:00:00.000Z",
      total_balance: 19682,
      kyc_status: "in_review",
      withdrawal_status: "on_hold",
      blocked: false,
      vip_manager: "Portfolio Bench",
    },
  ],
  total: 1,
  limit: 1,
  offset: 0,
  has_more: false,
  transactions: [],
};

/** GET /players/P000007/transactions?limit=2 (the demo data). */
export const transactionPageExample = {
  transactions: [
    {
      id: "T0000029629",
      date: "2026-11-20T11:59:40.000Z",
      event_type: "bet",
      event_name: "Live Casino Bet",
      event_note: "Blackjack VIP",
      amount: -2.1,
      currency: "CAD",
      payment_method: null,
      created_by: "System",
      created_at: "2026-11-20T11:59:40.000Z",
      completed_at: "2026-11-20T11:59:40.000Z",
      status: "completed",
      updated_at: "2026-11-20T11:59:40.000Z",
    },
    {
      id: "T0000029630",
      date: "2026-11-20T11:59:32.000Z",
      event_type: "bet",
      event_name: "Live Casino Bet",
      event_note: "Blackjack VIP",
      amount: -8.4,
      currency: "CAD",
      payment_method: null,
      created_by: "System",
      created_at: "2026-11-20T11:59:32.000Z",
      completed_at: "2026-11-20T11:59:32.000Z",
      status: "completed",
      updated_at: "2026-11-20T11:59:32.000Z",
    },
  ],
  total: 24000,
  limit: 2,
  offset: 0,
  has_more: true,
  next_cursor: "MTc5NTE3NTk3MjAwMC5UMDAwMDAyOTYzMA",
};
