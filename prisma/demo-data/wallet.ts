/*
 * A player's wallet history: deposits when cash runs out, bets and their wins, withdrawals, bonuses with
 * wagering, adjustments and refunds, in time order up to the demo's "now".
 */

import type { EventType } from "../../features/transactions/schema/transaction.ts";
import type { CREATORS } from "../../platform/schemas/enums.ts";
import { DAY, DEMO_REFERENCE_NOW, HOUR, iso } from "./clock.ts";
import { CURRENCY } from "./locales.ts";
import type { DemoPlayer } from "./players.ts";
import type { Rng } from "./random.ts";

type Creator = (typeof CREATORS)[number];

export interface DemoTransaction {
  id: string;
  player_id: string;
  date: string;
  event_type: EventType;
  event_name: string;
  event_note: string | null;
  amount: string; // exact decimal text
  currency: string;
  payment_method: string | null;
  created_by: Creator;
  created_at: string;
  completed_at: string | null;
  /** The demo's transactions are pending or completed (the live simulator adds failed and cancelled ones). */
  status: "pending" | "completed";
}

/** The casino games bets are placed on. */
export const GAMES = [
  "Book of Dead",
  "Starburst",
  "Gates of Olympus",
  "Sweet Bonanza",
  "Lightning Roulette",
  "Blackjack VIP",
  "Crazy Time",
  "Mega Moolah",
] as const;
const SPORTS = ["Premier League", "NBA", "Champions League", "ATP Tour", "NHL", "La Liga"] as const;

export function formatMinor(units: number, scale: number): string {
  const negative = units < 0;
  const digits = Math.abs(Math.round(units))
    .toString()
    .padStart(scale + 1, "0");
  const whole = scale === 0 ? digits : digits.slice(0, -scale);
  const frac = scale === 0 ? "" : `.${digits.slice(-scale)}`;
  return `${negative ? "-" : ""}${whole}${frac}`;
}

/** About how many transactions one pass of the wallet loop emits (a bet, its win 42% of the time, …). */
const TRANSACTIONS_PER_PASS = 1.4;

export function simulateWallet(
  rng: Rng,
  player: DemoPlayer,
  count: number,
  registration: number,
  nextTxId: () => string,
  emit: (tx: DemoTransaction) => void,
  options: { depositSpike?: boolean } = {},
): number | null {
  if (count === 0) return null;
  const plan = planHistory(rng, player, count, registration);
  const wallet = new WalletHistory(
    { rng, player, count, nextTxId, emit, depositSpike: options.depositSpike },
    plan,
  );
  wallet.run();
  return wallet.lastActivity;
}

interface WalletInputs {
  rng: Rng;
  player: DemoPlayer;
  count: number;
  nextTxId: () => string;
  emit: (tx: DemoTransaction) => void;
  depositSpike: boolean | undefined;
}

type HistoryPlan = ReturnType<typeof planHistory>;

/**
 * The history's frame, drawn first: the currency's scale, when it starts and ends (churned or not), the payment
 * methods and the game style.
 */
function planHistory(rng: Rng, player: DemoPlayer, count: number, registration: number) {
  const { scale, unit, crypto } = CURRENCY[player.currency] ?? { scale: 2, unit: 1, crypto: false };
  const minor = 10 ** scale;
  const churned = count < 1_000 && rng.chance(0.25); // heavy players are still active
  const end = churned
    ? DEMO_REFERENCE_NOW - rng.int(30, 300) * DAY
    : DEMO_REFERENCE_NOW - rng.int(0, 3 * DAY);
  const start = registration + rng.int(HOUR, 5 * DAY);
  const coin = player.currency === "BTC" ? "Bitcoin" : "Ethereum";
  const method: { deposit: readonly [string, string]; withdrawal: readonly [string, string] } | null = crypto
    ? { deposit: ["Crypto Deposit", coin], withdrawal: ["Crypto Withdrawal", coin] }
    : null;
  const style = player.segments.includes("sports_bettor")
    ? "sports"
    : player.segments.includes("live_casino_fan")
      ? "live"
      : "casino";
  return { scale, unit, minor, end, start, method, style };
}

interface PushFields {
  at: number;
  event_type: EventType;
  event_name: string;
  event_note: string | null;
  units: number;
  payment_method: string | null;
  created_by: DemoTransaction["created_by"];
  pending?: boolean;
  completedAfter?: number;
  createdAfter?: number;
}

/**
 * One player's wallet as it runs: the clock, the cash, the open bonus. Each step draws from the rng in a fixed
 * order, so the same seed gives the same history, byte for byte.
 */
class WalletHistory {
  produced = 0;
  lastActivity = 0;
  private readonly s: WalletInputs;
  private readonly plan: HistoryPlan;
  private t: number;
  private cash = 0;
  private bonus: { amount: number; wrLeft: number; betsSince: number } | null = null;

  constructor(inputs: WalletInputs, plan: HistoryPlan) {
    this.s = inputs;
    this.plan = plan;
    this.t = plan.start;
  }

  /** To minor units. */
  private money(major: number) {
    return Math.max(1, Math.round(major * this.plan.unit * this.plan.minor));
  }

  run() {
    const { rng, player, count } = this.s;
    while (this.produced < count) {
      this.advanceClock();
      const stake = this.money(rng.pick([0.2, 0.5, 1, 2, 5, 10, 25]) * (player.vip_manager ? 3 : 1));
      const roll = rng.next();
      if (this.cash < stake) {
        this.deposit();
      } else if (
        roll < (this.t > DEMO_REFERENCE_NOW - 10 * DAY ? 0.1 : 0.03) &&
        this.cash > this.money(150)
      ) {
        this.withdraw();
      } else if (roll < 0.04 && !this.bonus && player.want_bonus) {
        this.grantBonus();
      } else if (roll < 0.043) {
        this.adjust();
      } else {
        this.play(stake);
      }
    }
  }

  private advanceClock() {
    const { rng, count } = this.s;
    // The mean gap is recomputed from the time and the transactions left, so every history runs up to `end`
    // (a pass emits more than one transaction: a bet often brings its win).
    const passesLeft = Math.max(1, (count - this.produced) / TRANSACTIONS_PER_PASS);
    const meanGap = Math.max(this.plan.end - this.t, DAY) / passesLeft;
    this.t += Math.max(1_000, Math.round(-Math.log(1 - rng.next()) * meanGap));
    if (this.t > DEMO_REFERENCE_NOW) this.t = DEMO_REFERENCE_NOW - rng.int(1, 60) * 1_000;
  }

  // Builds each record with one fixed shape and formats each instant once: this runs millions of times in
  // db:generate. The key order is the one the demo data always had.
  private push(fields: PushFields) {
    const { player } = this.s;
    // Nothing happens after the demo's "now": a win or a refund hours after a bet just before it, a creation
    // or completion later than the event, are moved back to it.
    const at = Math.min(fields.at, DEMO_REFERENCE_NOW);
    if (at > this.lastActivity) this.lastActivity = at;
    this.produced++;
    const date = iso(at);
    const createdAfter = Math.min(fields.createdAfter ?? 0, DEMO_REFERENCE_NOW - at);
    const completedAfter = Math.min(fields.completedAfter ?? 0, DEMO_REFERENCE_NOW - at);
    this.s.emit({
      date,
      event_type: fields.event_type,
      event_name: fields.event_name,
      event_note: fields.event_note,
      payment_method: fields.payment_method,
      created_by: fields.created_by,
      id: this.s.nextTxId(),
      player_id: player.id,
      amount: formatMinor(fields.units, this.plan.scale),
      currency: player.currency,
      created_at: createdAfter === 0 ? date : iso(at + createdAfter),
      completed_at: fields.pending ? null : completedAfter === 0 ? date : iso(at + completedAfter),
      status: fields.pending ? "pending" : "completed",
    });
  }

  private deposit() {
    const { rng, player } = this.s;
    const t = this.t;
    const units = this.money(
      rng.pick([10, 20, 25, 50, 100, 200, 500]) * (player.vip_manager ? 4 : 1) + rng.int(0, 99) / 100,
    );
    const pending = t > DEMO_REFERENCE_NOW - 2 * DAY && rng.chance(0.4);
    // A spike (the portfolio's deposit_spike flag): the last week's deposits are twelve times the usual size.
    const size = this.s.depositSpike && t > DEMO_REFERENCE_NOW - 7 * DAY ? 12 : 1;
    const [name, pm] =
      this.plan.method?.deposit ??
      rng.pick([
        ["Card Deposit", "Visa"],
        ["Card Deposit", "Mastercard"],
        ["E-Wallet Deposit", "PayPal"],
        ["E-Wallet Deposit", "Skrill"],
        ["Bank Transfer Deposit", "Trustly"],
      ] as const);
    this.push({
      at: t,
      event_type: "deposit",
      event_name: name,
      event_note: null,
      units: units * size,
      payment_method: pm,
      created_by: "System",
      pending,
      completedAfter: rng.int(2_000, 20 * 60_000),
    });
    if (!pending) this.cash += units * size;
  }

  private withdraw() {
    const { rng } = this.s;
    const t = this.t;
    const units = Math.round(this.cash * (0.5 + rng.next() * 0.4));
    const pending = t > DEMO_REFERENCE_NOW - 10 * DAY && rng.chance(0.7);
    const [name, pm] =
      this.plan.method?.withdrawal ??
      rng.pick([
        ["Card Withdrawal", "Visa"],
        ["Bank Withdrawal", "Bank Transfer"],
        ["E-Wallet Withdrawal", "PayPal"],
      ] as const);
    this.push({
      at: t,
      event_type: "withdrawal",
      event_name: name,
      event_note: pending ? "Awaiting payment processor" : null,
      units: -units,
      payment_method: pm,
      created_by: "System",
      pending,
      completedAfter: rng.int(HOUR, 36 * HOUR),
    });
    this.cash -= units;
  }

  private grantBonus() {
    const { rng, player } = this.s;
    const units = this.money(rng.pick([10, 20, 50, 100]));
    const vip = player.vip_manager !== null && rng.chance(0.5);
    this.push({
      at: this.t,
      event_type: "bonus",
      event_name: vip ? "VIP Bonus" : rng.pick(["Welcome Bonus", "Reload Bonus", "Free Spins Bonus"]),
      event_note: vip ? `Granted by ${player.vip_manager}` : null,
      units,
      payment_method: null,
      created_by: vip ? "VIP Manager" : "System",
      createdAfter: vip ? rng.int(60_000, 30 * 60_000) : 0,
    });
    this.bonus = { amount: units, wrLeft: units * 30, betsSince: 0 };
  }

  private adjust() {
    const { rng } = this.s;
    const admin = rng.chance(0.5);
    const units =
      admin && rng.chance(0.5)
        ? -Math.min(this.cash, this.money(rng.int(1, 20)))
        : this.money(rng.int(5, 50));
    if (units === 0) return;
    this.push({
      at: this.t,
      event_type: "adjustment",
      event_name: admin ? "Balance Correction" : "Goodwill Adjustment",
      event_note: admin ? `Ticket #${rng.int(10_000, 99_999)}` : "Retention gesture",
      units,
      payment_method: null,
      created_by: admin ? "Admin" : "VIP Manager",
      createdAfter: rng.int(60_000, 2 * HOUR),
    });
    this.cash += units;
  }

  /** A bet, sometimes refunded or won, then the open bonus's wagering. */
  private play(stake: number) {
    const { rng } = this.s;
    const style = this.plan.style;
    const game = style === "sports" ? rng.pick(SPORTS) : rng.pick(GAMES);
    const [betName, winName] =
      style === "sports"
        ? ["Sports Bet", "Sports Win"]
        : style === "live"
          ? ["Live Casino Bet", "Live Casino Win"]
          : ["Casino Bet", "Casino Win"];
    this.push({
      at: this.t,
      event_type: "bet",
      event_name: betName,
      event_note: game,
      units: -stake,
      payment_method: null,
      created_by: "System",
    });
    this.cash -= stake;
    if (this.bonus) {
      this.bonus.wrLeft -= stake;
      this.bonus.betsSince++;
    }
    this.betOutcome(stake, game, winName);
    this.wagerBonus();
  }

  /** The bet's refund (rarely) or win (42% of the time), while the history has room. */
  private betOutcome(stake: number, game: string, winName: string) {
    const { rng, count } = this.s;
    const t = this.t;
    if (this.produced < count && rng.chance(0.004)) {
      this.push({
        at: t + rng.int(HOUR, DAY),
        event_type: "refund",
        event_name: "Bet Refund",
        event_note: `Voided: ${game}`,
        units: stake,
        payment_method: null,
        created_by: rng.chance(0.7) ? "System" : "Admin",
      });
      this.cash += stake;
    } else if (this.produced < count && rng.chance(0.42)) {
      const multiplier = rng.chance(0.003) ? rng.int(20, 100) : 0.2 + rng.next() * 3.3; // ~85% return to player
      const units = Math.round(stake * multiplier);
      this.push({
        at: t + rng.int(1_000, this.plan.style === "sports" ? 3 * HOUR : 8_000),
        event_type: "win",
        event_name: winName,
        event_note: game,
        units,
        payment_method: null,
        created_by: "System",
      });
      this.cash += units;
    }
  }

  /** The open bonus converts to cash once wagered through, or (rarely, after 60 bets) expires. */
  private wagerBonus() {
    const { rng, count } = this.s;
    const bonus = this.bonus;
    if (!bonus || this.produced + 1 >= count) return;
    const when = this.t + 2_000;
    if (bonus.wrLeft <= 0) {
      // Wagering met: the bonus leaves the bonus wallet and lands in cash at the same instant.
      this.push({
        at: when,
        event_type: "bonus",
        event_name: "Bonus Converted",
        event_note: "Wagering requirement met",
        units: -bonus.amount,
        payment_method: null,
        created_by: "System",
      });
      this.push({
        at: when,
        event_type: "adjustment",
        event_name: "Bonus Conversion",
        event_note: "Bonus funds released to cash",
        units: bonus.amount,
        payment_method: null,
        created_by: "System",
      });
      this.cash += bonus.amount;
      this.bonus = null;
    } else if (bonus.betsSince > 60 && rng.chance(0.02)) {
      this.push({
        at: when,
        event_type: "bonus",
        event_name: "Bonus Expired",
        event_note: "Wagering not completed in time",
        units: -bonus.amount,
        payment_method: null,
        created_by: "System",
      });
      this.bonus = null;
    }
  }
}
