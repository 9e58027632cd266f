import { TRANSACTION_RECORD_COLUMNS } from "@/features/exports/data/transaction-export-format";
import { copyBool, copyTextArray, copyValue } from "./copy-rows.ts";

/*
 * The COPY rows of `players` and `transactions`: the one place that knows their column order, shared by
 * db:generate (demo-data records, settings flat) and db:import (lines in the API's shapes, settings nested).
 * Balances and KPIs are not columns here: both tools derive them from the transactions afterwards.
 */

export const PLAYER_COPY_COLUMNS = [
  "id",
  "name",
  "email",
  "phone",
  "currency",
  "language",
  "registration_date",
  "last_login",
  "kyc_status",
  "withdrawal_status",
  "affiliate_name",
  "affiliate_source",
  "vip_manager",
  "blocked",
  "segments",
  "marketing_email_subscription",
  "email_validation",
  "email_account_activation",
  "marketing_sms_subscription",
  "sms_validation",
  "sms_account_activation",
  "want_bonus",
] as const;

/** A transaction's columns are the export's record: its player, then the API's fields in the API's order. */
export const TRANSACTION_COPY_COLUMNS = TRANSACTION_RECORD_COLUMNS;

export interface PlayerCopyFields {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  currency: string;
  language: string | null;
  registration_date: string;
  last_login: string | null;
  kyc_status: string;
  withdrawal_status: string | null;
  affiliate_name: string | null;
  affiliate_source: string | null;
  vip_manager: string | null;
  blocked: boolean;
  segments: readonly string[];
}

export interface PlayerSettingsCopyFields {
  marketing_email_subscription: boolean;
  email_validation: boolean;
  email_account_activation: string | null;
  marketing_sms_subscription: boolean;
  sms_validation: boolean;
  sms_account_activation: string | null;
  want_bonus: boolean;
}

/** `settings` apart, so the generator passes its flat record twice and the importer its nested object. */
export function playerCopyRow(p: PlayerCopyFields, settings: PlayerSettingsCopyFields): string[] {
  return [
    copyValue(p.id),
    copyValue(p.name),
    copyValue(p.email),
    copyValue(p.phone),
    copyValue(p.currency),
    copyValue(p.language),
    p.registration_date,
    copyValue(p.last_login),
    p.kyc_status,
    copyValue(p.withdrawal_status),
    copyValue(p.affiliate_name),
    copyValue(p.affiliate_source),
    copyValue(p.vip_manager),
    copyBool(p.blocked),
    copyTextArray(p.segments),
    copyBool(settings.marketing_email_subscription),
    copyBool(settings.email_validation),
    copyValue(settings.email_account_activation),
    copyBool(settings.marketing_sms_subscription),
    copyBool(settings.sms_validation),
    copyValue(settings.sms_account_activation),
    copyBool(settings.want_bonus),
  ];
}

export interface TransactionCopyFields {
  id: string;
  player_id: string;
  date: string;
  event_type: string;
  event_name: string;
  event_note: string | null;
  currency: string;
  payment_method: string | null;
  created_by: string;
  created_at: string;
  completed_at: string | null;
  /** pending | completed | failed | cancelled; completed exactly when completed_at is set. */
  status: string;
}

/** `amount` as its exact decimal digits: the generator has them as text, the importer as an ExactNumber. */
export function transactionCopyRow(t: TransactionCopyFields, amount: string): string[] {
  return [
    copyValue(t.player_id),
    copyValue(t.id),
    t.date,
    t.event_type,
    copyValue(t.event_name),
    copyValue(t.event_note),
    amount,
    copyValue(t.currency),
    copyValue(t.payment_method),
    copyValue(t.created_by),
    t.created_at,
    copyValue(t.completed_at),
    t.status,
  ];
}
