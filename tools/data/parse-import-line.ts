/*
 * db:import's lines: parsed and validated by features/live/schema/import-line.ts (shared with the live consumer's wallet
 * events), turned into COPY rows here.
 */
import type { ImportPlayer, ImportTransaction } from "@/features/live/schema/import-line";
import { playerCopyRow, transactionCopyRow } from "./table-rows.ts";

export * from "@/features/live/schema/import-line";

/** Staging columns of a player line (balances and KPIs are derived after the import, not copied). */
export const importPlayerRow = (p: ImportPlayer): string[] => playerCopyRow(p, p.settings);

export const importTransactionRow = (t: ImportTransaction): string[] =>
  transactionCopyRow(t, t.amount.digits);
