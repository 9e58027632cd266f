/** A transaction line of db:import's input, for tests. */
const TX = {
  id: "T1",
  player_id: "P000001",
  date: "2026-11-20T12:00:00.000Z",
  event_type: "deposit",
  event_name: "Card Deposit",
  event_note: null,
  amount: "AMOUNT",
  currency: "EUR",
  payment_method: "Visa",
  created_by: "System",
  created_at: "2026-11-20T12:00:00.000Z",
  completed_at: null,
};

/** The line as the API writes it: money as a bare JSON number with all its digits. */
export const txLine = (patch: Record<string, unknown> = {}, amount = "123456789012.12345678") =>
  JSON.stringify({ ...TX, ...patch }).replace('"AMOUNT"', amount);
