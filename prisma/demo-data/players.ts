/*
 * Deterministic, realistic demo data: the same seed always yields the same players and transactions.
 * Transactions come from a small wallet simulation (wallet.ts: no bet without cash, bonuses with wagering),
 * and profiles' balances and KPIs are then derived from them in SQL (platform/db/refresh-player-aggregates.ts).
 */
import { KYC_STATUSES, type KycStatus } from "../../platform/schemas/enums.ts";
import { DAY, DEMO_REFERENCE_NOW, HOUR, iso } from "./clock.ts";
import { LOCALES } from "./locales.ts";
import { createRng, type Rng } from "./random.ts";
import { type DemoTransaction, simulateWallet } from "./wallet.ts";

export interface DemoPlayer {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  currency: string;
  language: string;
  registration_date: string;
  last_login: string | null;
  kyc_status: KycStatus;
  withdrawal_status: string;
  affiliate_name: string | null;
  affiliate_source: string | null;
  vip_manager: string | null;
  blocked: boolean;
  segments: string[];
  marketing_email_subscription: boolean;
  email_validation: boolean;
  email_account_activation: string;
  marketing_sms_subscription: boolean;
  sms_validation: boolean;
  sms_account_activation: string;
  want_bonus: boolean;
}

export const VIP_MANAGERS = ["Sarah Mitchell", "David Chen", "Elena Rossi", "Marcus Berg"] as const;

/** The demo's whale (P000007): in Sarah Mitchell's book, the demo VIP manager's own. */
const WHALE = 7;

/**
 * Each demo manager's book is 20–40 players (the portfolio page): the VIP players keep the manager drawn for them,
 * and every third other player who ever played is looked after too, the four managers in turn. Decided without
 * the random source, so every draw (and every player generated after this one) stays what it was.
 */
export function demoManagerFor(n: number, drawn: string | null, txCount: number): string | null {
  if (n === WHALE) return VIP_MANAGERS[0];
  if (drawn !== null) return drawn;
  if (txCount === 0 || n % 3 !== 0) return null;
  return VIP_MANAGERS[(n / 3) % VIP_MANAGERS.length] ?? null;
}

/**
 * Players whose last week of deposits is a spike (amounts ×12 in the 7 days before the demo's "now"; their count
 * stays the same): so each demo book holds a `deposit_spike` flag (docs/back-office.md, demo data).
 */
export const DEPOSIT_SPIKE_PLAYERS: ReadonlySet<number> = new Set([3, 42, 150]);
const AFFILIATES = [
  ["CasinoGuru", "seo"],
  ["AskGamblers", "seo"],
  ["BonusFinder", "ppc"],
  ["SlotsCatalog", "email"],
  ["StreamerNet", "social"],
] as const;
const KYC: readonly KycStatus[] = [
  "approved",
  "approved",
  "approved",
  "approved",
  "pending",
  "in_review",
  "not_started",
  "rejected",
];
/** How many transactions player number n (1-based) has: a long tail, a few heavy players, one whale. */
export function transactionCountFor(n: number, rng: Rng): number {
  if (n === 7) return 24_000; // the whale: the demo's busiest slot player
  if ([3, 12, 42, 101, 150].includes(n)) return 2_000 + ((n * 997) % 4_000);
  if (n % 23 === 0) return 0; // registered, never played
  return 3 + Math.floor(rng.next() ** 2 * 180);
}

export interface DemoDataset {
  players: DemoPlayer[];
  transactions: DemoTransaction[];
}

export function generateDemoData(options: { players?: number; seed?: number } = {}): DemoDataset {
  const playerCount = options.players ?? 240;
  const rng = createRng(options.seed ?? 20261121);
  const players: DemoPlayer[] = [];
  const transactions: DemoTransaction[] = [];
  const nextTxId = transactionIdSequence();
  const emit = (tx: DemoTransaction) => {
    transactions.push(tx);
  };
  for (let n = 1; n <= playerCount; n++) {
    players.push(generatePlayer(n, rng, { nextTxId, emit, managerFor: demoManagerFor }));
  }
  return { players, transactions };
}

/** T0000000001, T0000000002, …: unique across one generated data set. */
export function transactionIdSequence(width = 10): () => string {
  let next = 1;
  return () => `T${String(next++).padStart(width, "0")}`;
}

export interface PlayerGeneration {
  nextTxId: () => string;
  /** Receives the player's transactions in order, one at a time (a whale's history is never held in memory). */
  emit: (tx: DemoTransaction) => void;
  /** How many transactions player n gets; drawn at the same point of the random sequence as the demo's. */
  countFor?: (n: number, rng: Rng) => number;
  /** Digits of the player number in the id (P000007 has 6). */
  idWidth?: number;
  /** Player n's VIP manager, given the one drawn for a VIP (null otherwise); default: the drawn one. */
  managerFor?: (n: number, drawn: string | null, txCount: number) => string | null;
}

const keepDrawn = (_n: number, drawn: string | null) => drawn;

/**
 * Player number n (1-based) and, through `emit`, their wallet history. Consumes `rng` in a fixed order,
 * so calling it for n = 1, 2, … with one rng reproduces the same data set every time.
 */
export function generatePlayer(n: number, rng: Rng, gen: PlayerGeneration): DemoPlayer {
  const locale = rng.pick(LOCALES);
  const first = rng.pick(locale.first);
  const last = rng.pick(locale.last);
  const id = `P${String(n).padStart(gen.idWidth ?? 6, "0")}`;
  const txCount = (gen.countFor ?? transactionCountFor)(n, rng);
  // Heavy players have played for over a year (every month of the activity chart has data) and under three
  // (their whole history fits the activity API's 36 months).
  const heavy = txCount >= 1_000;
  const registration =
    DEMO_REFERENCE_NOW - rng.int(heavy ? 400 : 30, heavy ? 1_000 : 1_400) * DAY - rng.int(0, DAY);
  const blocked = n % 17 === 0;
  const kyc = (n <= 5 ? KYC_STATUSES[n - 1] : undefined) ?? rng.pick(KYC); // the first five cover every status
  const isVip = heavy || rng.chance(0.15);
  const affiliate = rng.chance(0.6) ? rng.pick(AFFILIATES) : null;
  const emailLocal = `${first}.${last}`
    .normalize("NFD")
    .replace(/[^A-Za-z.]/g, "")
    .toLowerCase();
  const segments = new Set<string>();
  if (isVip) segments.add(rng.pick(["vip_gold", "vip_platinum", "high_roller"]));
  if (txCount === 0) segments.add("registered_no_deposit");
  else if (registration > DEMO_REFERENCE_NOW - 90 * DAY) segments.add("new_player");
  segments.add(rng.pick(["casino_player", "slots_lover", "sports_bettor", "live_casino_fan"]));
  if (rng.chance(0.2)) segments.add("bonus_hunter");
  if (rng.chance(0.1)) segments.add("at_risk");

  const player: DemoPlayer = {
    id,
    name: `${first} ${last}`,
    email: n % 41 === 0 ? null : `${emailLocal}${n}@example.com`,
    phone: n % 13 === 0 ? null : `${locale.phonePrefix}${String(rng.int(1_000_000, 9_999_999))}`,
    currency: locale.currency,
    language: locale.language,
    registration_date: iso(registration),
    last_login: null,
    kyc_status: kyc,
    withdrawal_status: blocked
      ? "blocked"
      : kyc === "approved"
        ? "allowed"
        : kyc === "rejected"
          ? "blocked"
          : "on_hold",
    affiliate_name: affiliate ? affiliate[0] : null,
    affiliate_source: affiliate ? affiliate[1] : null,
    vip_manager: (gen.managerFor ?? keepDrawn)(n, isVip ? rng.pick(VIP_MANAGERS) : null, txCount),
    blocked,
    segments: [...segments],
    marketing_email_subscription: rng.chance(0.6),
    email_validation: rng.chance(0.85),
    email_account_activation: rng.pick(["activated", "activated", "activated", "pending"]),
    marketing_sms_subscription: rng.chance(0.4),
    sms_validation: rng.chance(0.7),
    sms_account_activation: rng.pick(["activated", "activated", "pending", "not_sent"]),
    want_bonus: rng.chance(0.7),
  };
  // The wallet draws from a stream of its own, seeded once per player: how it spends random numbers then
  // never shifts the players generated after this one.
  const walletRng = createRng(rng.int(1, 2 ** 31 - 1));
  const lastActivity = simulateWallet(walletRng, player, txCount, registration, gen.nextTxId, gen.emit, {
    depositSpike: gen.managerFor === demoManagerFor && DEPOSIT_SPIKE_PLAYERS.has(n),
  });
  player.last_login = lastActivity
    ? iso(Math.min(DEMO_REFERENCE_NOW, lastActivity + rng.int(0, 6 * HOUR)))
    : rng.chance(0.5)
      ? iso(registration + rng.int(60_000, 2 * HOUR))
      : null;
  return player;
}
