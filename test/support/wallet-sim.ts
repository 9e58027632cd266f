/*
 * The wallet, simulated live (npm run wallet:simulate, the bench and the fault tests): the demo's wallet model
 * (prisma/demo-data/wallet.ts: deposits when cash runs out, bets and their wins, bonuses with 30× wagering then
 * converted, withdrawals) as a stream of events with states. Deposits and withdrawals start `pending` and settle
 * later as a new version: deposits complete (or fail), withdrawals complete, fail or are cancelled. Deterministic
 * for a seed. It also keeps every record's final state: what the read model must end up holding.
 */

import { CURRENCY, LOCALES } from "@/prisma/demo-data/locales";
import { createRng, type Rng } from "@/prisma/demo-data/random";
import { GAMES as DEMO_GAMES, formatMinor } from "@/prisma/demo-data/wallet";
import type { PlayerCopyFields } from "../../tools/data/table-rows.ts";

export type SimStatus = "pending" | "completed" | "failed" | "cancelled";

export interface SimTransaction {
  id: string;
  player_id: string;
  date: string;
  event_type: "deposit" | "withdrawal" | "bonus" | "bet" | "win" | "adjustment" | "refund";
  event_name: string;
  event_note: string | null;
  amount: string;
  currency: string;
  payment_method: string | null;
  created_by: string;
  created_at: string;
  completed_at: string | null;
  status: SimStatus;
  version: number;
}

/** A player record as db:import and the ingest read it: the copied fields, and ones they validate and derive. */
export interface SimPlayer extends PlayerCopyFields {
  ftd_date: null;
  kyc_status: "approved";
  withdrawal_status: string;
  balances: Record<string, number>;
  kpi: Record<string, unknown>;
  segments: string[];
  settings: Record<string, boolean | string | null>;
  version: number;
}

export type SimEvent =
  | { subject: "wallet.player"; record: SimPlayer }
  | { subject: "wallet.transaction"; record: SimTransaction };

interface Wallet {
  player: SimPlayer;
  scale: number;
  unit: number;
  cash: number; // minor units, completed and reserved
  bonus: { amount: number; wrLeft: number } | null;
}

interface Settlement {
  due: number;
  tx: SimTransaction;
  units: number;
  wallet: Wallet;
}

/** One step's wallet, clock and outlets: emit at once, or keep pending and settle later. */
interface StepContext {
  w: Wallet;
  now: number;
  emit: (record: SimTransaction) => void;
  settleLater: (tx: SimTransaction, units: number) => void;
}

// The demo data's first five games.
const GAMES = DEMO_GAMES.slice(0, 5);

export interface WalletSimOptions {
  players: number;
  /** Player ids are `<prefix><6 digits>`; transaction ids `<prefix>T<run>-<n>`. */
  prefix?: string;
  seed?: number;
  /** How long a deposit or withdrawal stays pending, in ms of the simulation's clock (default 200–3,000). */
  settleMs?: [number, number];
  /** Share of events published a second time under the same message id (the stream drops them). */
  duplicateShare?: number;
  /** Share of settlements published before their pending version (the consumer must keep the higher one). */
  reorderShare?: number;
}

export class WalletSim {
  readonly rng: Rng;
  readonly wallets: Wallet[];
  /** The final state of every record published: what the read model must hold. */
  readonly finalTransactions = new Map<string, SimTransaction>();
  readonly finalPlayers = new Map<string, SimPlayer>();
  private readonly pending: Settlement[] = [];
  private readonly held = new Map<string, SimTransaction>(); // pending versions held back (reordering)
  private seq = 0;
  private readonly run: string;

  constructor(private readonly options: WalletSimOptions) {
    this.rng = createRng(options.seed ?? 24);
    this.run = Date.now().toString(36);
    const prefix = options.prefix ?? "S";
    this.wallets = Array.from({ length: options.players }, (_, i) =>
      this.newWallet(`${prefix}${String(i + 1).padStart(6, "0")}`),
    );
  }

  private newWallet(id: string): Wallet {
    const locale = this.rng.pick(LOCALES);
    const currency = locale.currency;
    const { scale, unit } = CURRENCY[currency] ?? { scale: 2, unit: 1 };
    const first = this.rng.pick(locale.first);
    const last = this.rng.pick(locale.last);
    const now = new Date().toISOString();
    const player: SimPlayer = {
      id,
      name: `${first} ${last}`,
      email: `player.${id.toLowerCase()}@example.com`,
      phone: null,
      currency,
      language: locale.language,
      registration_date: now,
      ftd_date: null,
      last_login: now,
      kyc_status: "approved",
      withdrawal_status: "allowed",
      affiliate_name: null,
      affiliate_source: null,
      vip_manager: null,
      blocked: false,
      // Validated and ignored by the consumer: the read model derives them.
      balances: {
        total_balance: 0,
        cash_balance: 0,
        bonus_balance: 0,
        withdrawable_balance: 0,
        pending_withdrawal: 0,
      },
      kpi: { active_bonus: false, wr: 0, last_withdrawal: null, last_deposit: null, ltd: 0, ltw: 0, ltnc: 0 },
      segments: ["live_simulation"],
      settings: {
        marketing_email_subscription: false,
        email_validation: true,
        email_account_activation: null,
        marketing_sms_subscription: false,
        sms_validation: false,
        sms_account_activation: null,
        want_bonus: true,
      },
      version: 1,
    };
    return { player, scale, unit, cash: 0, bonus: null };
  }

  /** The profiles, version 1: published before any of their transactions. */
  playerEvents(): SimEvent[] {
    return this.wallets.map((w) => {
      this.finalPlayers.set(w.player.id, w.player);
      return { subject: "wallet.player", record: w.player };
    });
  }

  private money(w: Wallet, major: number) {
    return Math.max(1, Math.round(major * w.unit * 10 ** w.scale));
  }

  private tx(
    w: Wallet,
    at: number,
    fields: Partial<SimTransaction> & Pick<SimTransaction, "event_type" | "event_name">,
    units: number,
    status: SimStatus = "completed",
  ): SimTransaction {
    this.seq += 1;
    const date = new Date(at).toISOString();
    const tx: SimTransaction = {
      id: `${this.options.prefix ?? "S"}T${this.run}-${this.seq}`,
      player_id: w.player.id,
      date,
      event_note: null,
      payment_method: null,
      created_by: "System",
      ...fields,
      amount: formatMinor(units, w.scale),
      currency: w.player.currency,
      created_at: date,
      completed_at: status === "completed" ? date : null,
      status,
      version: 1,
    };
    this.finalTransactions.set(tx.id, tx);
    return tx;
  }

  /** The events of one step of one random player's wallet, plus any settlements due by `now`. */
  step(now: number): SimEvent[] {
    const out: SimEvent[] = [];
    const emit = (record: SimTransaction) => out.push({ subject: "wallet.transaction", record });
    const w = this.rng.pick(this.wallets);
    const stake = this.money(w, this.rng.pick([0.2, 0.5, 1, 2, 5, 10]));
    const roll = this.rng.next();
    const [minSettle, maxSettle] = this.options.settleMs ?? [200, 3_000];
    const settleLater = (tx: SimTransaction, units: number) => {
      this.pending.push({ due: now + this.rng.int(minSettle, maxSettle), tx, units, wallet: w });
      if (this.rng.chance(this.options.reorderShare ?? 0.02)) this.held.set(tx.id, tx);
      else emit(tx);
    };
    const at: StepContext = { w, now, emit, settleLater };
    if (w.cash < stake) this.deposit(at);
    else if (roll < 0.03 && w.cash > this.money(w, 150)) this.withdraw(at);
    else if (roll < 0.045 && !w.bonus) this.grantBonus(at);
    else if (roll < 0.05) this.adjust(at);
    else this.play(at, stake);
    out.push(...this.settle(now));
    return out;
  }

  private deposit({ w, now, settleLater }: StepContext) {
    const units = this.money(w, this.rng.pick([10, 20, 25, 50, 100]));
    const [name, pm] = this.rng.pick([
      ["Card Deposit", "Visa"],
      ["E-Wallet Deposit", "PayPal"],
      ["Bank Transfer Deposit", "Trustly"],
    ] as const);
    settleLater(
      this.tx(w, now, { event_type: "deposit", event_name: name, payment_method: pm }, units, "pending"),
      units,
    );
  }

  private withdraw({ w, now, settleLater }: StepContext) {
    const units = Math.round(w.cash * (0.5 + this.rng.next() * 0.4));
    const [name, pm] = this.rng.pick([
      ["Card Withdrawal", "Visa"],
      ["Bank Withdrawal", "Bank Transfer"],
    ] as const);
    w.cash -= units; // reserved at once
    settleLater(
      this.tx(
        w,
        now,
        {
          event_type: "withdrawal",
          event_name: name,
          payment_method: pm,
          event_note: "Awaiting payment processor",
        },
        -units,
        "pending",
      ),
      -units,
    );
  }

  private grantBonus({ w, now, emit }: StepContext) {
    const units = this.money(w, this.rng.pick([10, 20, 50]));
    emit(
      this.tx(
        w,
        now,
        { event_type: "bonus", event_name: this.rng.pick(["Welcome Bonus", "Reload Bonus"]) },
        units,
      ),
    );
    w.bonus = { amount: units, wrLeft: units * 30 };
  }

  private adjust({ w, now, emit }: StepContext) {
    const units = this.money(w, this.rng.int(5, 50));
    emit(
      this.tx(
        w,
        now,
        {
          event_type: "adjustment",
          event_name: "Goodwill Adjustment",
          event_note: "Retention gesture",
          created_by: "VIP Manager",
        },
        units,
      ),
    );
    w.cash += units;
  }

  /** A bet, its win 42% of the time, and the bonus converted once its wagering is met. */
  private play({ w, now, emit }: StepContext, stake: number) {
    const game = this.rng.pick(GAMES);
    emit(this.tx(w, now, { event_type: "bet", event_name: "Casino Bet", event_note: game }, -stake));
    w.cash -= stake;
    if (this.rng.chance(0.42)) {
      const units = Math.round(stake * (0.2 + this.rng.next() * 3.3));
      emit(this.tx(w, now + 1, { event_type: "win", event_name: "Casino Win", event_note: game }, units));
      w.cash += units;
    }
    if (!w.bonus) return;
    w.bonus.wrLeft -= stake;
    if (w.bonus.wrLeft > 0) return;
    emit(
      this.tx(
        w,
        now + 2,
        { event_type: "bonus", event_name: "Bonus Converted", event_note: "Wagering requirement met" },
        -w.bonus.amount,
      ),
    );
    emit(
      this.tx(
        w,
        now + 2,
        {
          event_type: "adjustment",
          event_name: "Bonus Conversion",
          event_note: "Bonus funds released to cash",
        },
        w.bonus.amount,
      ),
    );
    w.cash += w.bonus.amount;
    w.bonus = null;
  }

  /** Settlements due by `now` (all of them with `Infinity`): a new version with the final status. */
  settle(now: number): SimEvent[] {
    const out: SimEvent[] = [];
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const s = this.pending[i];
      if (!s || s.due > now) continue;
      this.pending.splice(i, 1);
      const roll = this.rng.next();
      const deposit = s.tx.event_type === "deposit";
      const status: SimStatus = deposit
        ? roll < 0.9
          ? "completed"
          : "failed"
        : roll < 0.8
          ? "completed"
          : roll < 0.92
            ? "failed"
            : "cancelled";
      const at = Math.max(Number.isFinite(now) ? now : Date.now(), Date.parse(s.tx.date) + 1);
      const settled: SimTransaction = {
        ...s.tx,
        status,
        completed_at: status === "completed" ? new Date(at).toISOString() : null,
        event_note:
          status === "completed"
            ? null
            : status === "failed"
              ? "Rejected by the payment processor"
              : "Cancelled by the player",
        version: 2,
      };
      if (deposit && status === "completed") s.wallet.cash += s.units;
      if (!deposit && status !== "completed") s.wallet.cash -= s.units; // the reservation released (units < 0)
      this.finalTransactions.set(settled.id, settled);
      out.push({ subject: "wallet.transaction", record: settled });
      const held = this.held.get(s.tx.id);
      if (held) {
        // The pending version arrives after its settlement: late and out of order.
        this.held.delete(s.tx.id);
        out.push({ subject: "wallet.transaction", record: held });
      }
    }
    return out;
  }

  /** Whether a published event should be published again under the same message id. */
  duplicate(): boolean {
    return this.rng.chance(this.options.duplicateShare ?? 0.02);
  }
}
