/*
 * Deterministic, realistic demo data: the same seed always yields the same players and transactions.
 * Transactions come from a small wallet simulation (no bet without cash, bonuses with wagering), and
 * profiles' balances and KPIs are then derived from them in SQL (lib/db/refresh-player-aggregates.ts).
 */

export const DEMO_REFERENCE_NOW = Date.UTC(2026, 10, 20, 12, 0, 0); // the demo's "now": 2026-11-20T12:00:00Z
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export type EventTypeName = "deposit" | "withdrawal" | "bonus" | "bet" | "win" | "adjustment" | "refund";
export type KycStatusName = "not_started" | "pending" | "in_review" | "approved" | "rejected";

export interface DemoPlayer {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  currency: string;
  language: string;
  registration_date: string;
  last_login: string | null;
  kyc_status: KycStatusName;
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

export interface DemoTransaction {
  id: string;
  player_id: string;
  date: string;
  event_type: EventTypeName;
  event_name: string;
  event_note: string | null;
  amount: string; // exact decimal text
  currency: string;
  payment_method: string | null;
  created_by: "System" | "VIP Manager" | "Admin";
  created_at: string;
  completed_at: string | null;
}

/** mulberry32: tiny, fast, deterministic. */
export function createRng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}
export type Rng = ReturnType<typeof createRng>;

interface Locale {
  language: string;
  currency: string;
  phonePrefix: string;
  first: readonly string[];
  last: readonly string[];
}

const LOCALES: readonly Locale[] = [
  {
    language: "English",
    currency: "GBP",
    phonePrefix: "+44 7",
    first: ["Oliver", "Amelia", "Harry", "Isla", "Jack", "Emily", "George", "Ava"],
    last: ["Smith", "Jones", "Taylor", "Brown", "Wilson", "Evans", "Walker", "Wright"],
  },
  {
    language: "English",
    currency: "USD",
    phonePrefix: "+1 415",
    first: ["Liam", "Olivia", "Noah", "Emma", "James", "Sophia", "Lucas", "Mia"],
    last: ["Johnson", "Miller", "Davis", "Garcia", "Martinez", "Anderson", "Clark", "Lewis"],
  },
  {
    language: "German",
    currency: "EUR",
    phonePrefix: "+49 151",
    first: ["Lukas", "Hannah", "Felix", "Lena", "Jonas", "Marie", "Paul", "Lea"],
    last: ["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Wagner", "Becker", "Hoffmann"],
  },
  {
    language: "Spanish",
    currency: "EUR",
    phonePrefix: "+34 6",
    first: ["Hugo", "Lucía", "Mateo", "Sofía", "Martín", "Martina", "Pablo", "Julia"],
    last: ["García", "Fernández", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Ruiz"],
  },
  {
    language: "Portuguese",
    currency: "BRL",
    phonePrefix: "+55 11 9",
    first: ["Miguel", "Alice", "Arthur", "Helena", "Heitor", "Laura", "Davi", "Valentina"],
    last: ["Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira"],
  },
  {
    language: "Swedish",
    currency: "SEK",
    phonePrefix: "+46 70",
    first: ["Elias", "Alma", "William", "Elsa", "Hugo", "Maja", "Noah", "Astrid"],
    last: ["Andersson", "Johansson", "Karlsson", "Nilsson", "Eriksson", "Larsson", "Olsson", "Persson"],
  },
  {
    language: "Norwegian",
    currency: "NOK",
    phonePrefix: "+47 4",
    first: ["Jakob", "Nora", "Emil", "Ingrid", "Filip", "Sofie", "Aksel", "Emma"],
    last: ["Hansen", "Johansen", "Olsen", "Larsen", "Andersen", "Pedersen", "Nilsen", "Kristiansen"],
  },
  {
    language: "French",
    currency: "CAD",
    phonePrefix: "+1 514",
    first: ["Gabriel", "Léa", "Raphaël", "Chloé", "Louis", "Zoé", "Arthur", "Alice"],
    last: ["Tremblay", "Gagnon", "Roy", "Côté", "Bouchard", "Gauthier", "Morin", "Lavoie"],
  },
  {
    language: "Japanese",
    currency: "JPY",
    phonePrefix: "+81 90",
    first: ["Haruto", "Yui", "Sota", "Hina", "Yuto", "Aoi", "Riku", "Mei"],
    last: ["Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito", "Yamamoto", "Nakamura"],
  },
  {
    language: "Finnish",
    currency: "BTC",
    phonePrefix: "+358 40",
    first: ["Eino", "Aino", "Leo", "Helmi", "Väinö", "Olivia", "Onni", "Ella"],
    last: ["Korhonen", "Virtanen", "Mäkinen", "Nieminen", "Mäkelä", "Hämäläinen", "Laine", "Heikkinen"],
  },
  {
    language: "English",
    currency: "ETH",
    phonePrefix: "+353 87",
    first: ["Conor", "Aoife", "Seán", "Niamh", "Cian", "Saoirse", "Darragh", "Ciara"],
    last: ["Murphy", "Kelly", "O'Brien", "Byrne", "Ryan", "Walsh", "O'Sullivan", "McCarthy"],
  },
];

/** Minor-unit scale per currency, and a unit size so amounts look natural in each currency. */
const CURRENCY: Record<string, { scale: number; unit: number; crypto: boolean }> = {
  GBP: { scale: 2, unit: 1, crypto: false },
  USD: { scale: 2, unit: 1, crypto: false },
  EUR: { scale: 2, unit: 1, crypto: false },
  BRL: { scale: 2, unit: 5, crypto: false },
  SEK: { scale: 2, unit: 10, crypto: false },
  NOK: { scale: 2, unit: 10, crypto: false },
  CAD: { scale: 2, unit: 1.4, crypto: false },
  JPY: { scale: 0, unit: 150, crypto: false },
  BTC: { scale: 8, unit: 0.000011, crypto: true },
  ETH: { scale: 8, unit: 0.00033, crypto: true },
};

const VIP_MANAGERS = ["Sarah Mitchell", "David Chen", "Elena Rossi", "Marcus Berg"] as const;
const AFFILIATES = [
  ["CasinoGuru", "seo"],
  ["AskGamblers", "seo"],
  ["BonusFinder", "ppc"],
  ["SlotsCatalog", "email"],
  ["StreamerNet", "social"],
] as const;
const KYC: readonly KycStatusName[] = [
  "approved",
  "approved",
  "approved",
  "approved",
  "pending",
  "in_review",
  "not_started",
  "rejected",
];
const GAMES = [
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

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
let isoDay = Number.NaN;
let isoDayPrefix = "";
/** Same text as `new Date(ms).toISOString()`, several times faster for whole-millisecond instants in years 1970–9999 (db:generate formats tens of millions). */
const iso = (ms: number): string => {
  if (!Number.isInteger(ms) || ms < 0 || ms >= 253_402_300_800_000) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY);
  if (day !== isoDay) {
    isoDay = day;
    isoDayPrefix = new Date(day * DAY).toISOString().slice(0, 11);
  }
  let rest = ms - day * DAY;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const sec = rest % 60;
  rest = (rest - sec) / 60;
  const min = rest % 60;
  const hour = (rest - min) / 60;
  return `${isoDayPrefix}${pad2(hour)}:${pad2(min)}:${pad2(sec)}.${milli < 10 ? `00${milli}` : milli < 100 ? `0${milli}` : milli}Z`;
};

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
    players.push(generatePlayer(n, rng, { nextTxId, emit }));
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
}

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
  const kyc = (n <= 5 ? KYC_CYCLE[n - 1] : undefined) ?? rng.pick(KYC); // the first five cover every status
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
    vip_manager: isVip ? rng.pick(VIP_MANAGERS) : null,
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
  const lastActivity = simulateWallet(walletRng, player, txCount, registration, gen.nextTxId, gen.emit);
  player.last_login = lastActivity
    ? iso(Math.min(DEMO_REFERENCE_NOW, lastActivity + rng.int(0, 6 * HOUR)))
    : rng.chance(0.5)
      ? iso(registration + rng.int(60_000, 2 * HOUR))
      : null;
  return player;
}

const KYC_CYCLE: readonly KycStatusName[] = ["not_started", "pending", "in_review", "approved", "rejected"];

/** About how many transactions one pass of the wallet loop emits (a bet, its win 42% of the time, …). */
const TRANSACTIONS_PER_PASS = 1.4;

function simulateWallet(
  rng: Rng,
  player: DemoPlayer,
  count: number,
  registration: number,
  nextTxId: () => string,
  emit: (tx: DemoTransaction) => void,
): number | null {
  if (count === 0) return null;
  let produced = 0;
  let lastActivity = 0;
  const { scale, unit, crypto } = CURRENCY[player.currency] ?? { scale: 2, unit: 1, crypto: false };
  const minor = 10 ** scale;
  const money = (major: number) => Math.max(1, Math.round(major * unit * minor)); // to minor units
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

  let t = start;
  let cash = 0;
  let bonus: { amount: number; wrLeft: number; betsSince: number } | null = null;

  // Builds each record with one fixed shape and formats each instant once: this runs millions of times in
  // db:generate. The key order is the one the demo data always had.
  const push = (fields: {
    at: number;
    event_type: EventTypeName;
    event_name: string;
    event_note: string | null;
    units: number;
    payment_method: string | null;
    created_by: DemoTransaction["created_by"];
    pending?: boolean;
    completedAfter?: number;
    createdAfter?: number;
  }) => {
    // Nothing happens after the demo's "now": a win or a refund hours after a bet just before it, a creation
    // or completion later than the event, are moved back to it.
    const at = Math.min(fields.at, DEMO_REFERENCE_NOW);
    if (at > lastActivity) lastActivity = at;
    produced++;
    const date = iso(at);
    const createdAfter = Math.min(fields.createdAfter ?? 0, DEMO_REFERENCE_NOW - at);
    const completedAfter = Math.min(fields.completedAfter ?? 0, DEMO_REFERENCE_NOW - at);
    emit({
      date,
      event_type: fields.event_type,
      event_name: fields.event_name,
      event_note: fields.event_note,
      payment_method: fields.payment_method,
      created_by: fields.created_by,
      id: nextTxId(),
      player_id: player.id,
      amount: formatMinor(fields.units, scale),
      currency: player.currency,
      created_at: createdAfter === 0 ? date : iso(at + createdAfter),
      completed_at: fields.pending ? null : completedAfter === 0 ? date : iso(at + completedAfter),
    });
  };

  const deposit = () => {
    const units = money(
      rng.pick([10, 20, 25, 50, 100, 200, 500]) * (player.vip_manager ? 4 : 1) + rng.int(0, 99) / 100,
    );
    const pending = t > DEMO_REFERENCE_NOW - 2 * DAY && rng.chance(0.4);
    const [name, pm] =
      method?.deposit ??
      rng.pick([
        ["Card Deposit", "Visa"],
        ["Card Deposit", "Mastercard"],
        ["E-Wallet Deposit", "PayPal"],
        ["E-Wallet Deposit", "Skrill"],
        ["Bank Transfer Deposit", "Trustly"],
      ] as const);
    push({
      at: t,
      event_type: "deposit",
      event_name: name,
      event_note: null,
      units,
      payment_method: pm,
      created_by: "System",
      pending,
      completedAfter: rng.int(2_000, 20 * 60_000),
    });
    if (!pending) cash += units;
  };

  while (produced < count) {
    // The mean gap is recomputed from the time and the transactions left, so every history runs up to `end`
    // (a pass emits more than one transaction: a bet often brings its win).
    const passesLeft = Math.max(1, (count - produced) / TRANSACTIONS_PER_PASS);
    const meanGap = Math.max(end - t, DAY) / passesLeft;
    t += Math.max(1_000, Math.round(-Math.log(1 - rng.next()) * meanGap));
    if (t > DEMO_REFERENCE_NOW) t = DEMO_REFERENCE_NOW - rng.int(1, 60) * 1_000;
    const stake = money(rng.pick([0.2, 0.5, 1, 2, 5, 10, 25]) * (player.vip_manager ? 3 : 1));
    const roll = rng.next();

    if (cash < stake) {
      deposit();
    } else if (roll < (t > DEMO_REFERENCE_NOW - 10 * DAY ? 0.1 : 0.03) && cash > money(150)) {
      const units = Math.round(cash * (0.5 + rng.next() * 0.4));
      const pending = t > DEMO_REFERENCE_NOW - 10 * DAY && rng.chance(0.7);
      const [name, pm] =
        method?.withdrawal ??
        rng.pick([
          ["Card Withdrawal", "Visa"],
          ["Bank Withdrawal", "Bank Transfer"],
          ["E-Wallet Withdrawal", "PayPal"],
        ] as const);
      push({
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
      cash -= units;
    } else if (roll < 0.04 && !bonus && player.want_bonus) {
      const units = money(rng.pick([10, 20, 50, 100]));
      const vip = player.vip_manager !== null && rng.chance(0.5);
      push({
        at: t,
        event_type: "bonus",
        event_name: vip ? "VIP Bonus" : rng.pick(["Welcome Bonus", "Reload Bonus", "Free Spins Bonus"]),
        event_note: vip ? `Granted by ${player.vip_manager}` : null,
        units,
        payment_method: null,
        created_by: vip ? "VIP Manager" : "System",
        createdAfter: vip ? rng.int(60_000, 30 * 60_000) : 0,
      });
      bonus = { amount: units, wrLeft: units * 30, betsSince: 0 };
    } else if (roll < 0.043) {
      const admin = rng.chance(0.5);
      const units = admin && rng.chance(0.5) ? -Math.min(cash, money(rng.int(1, 20))) : money(rng.int(5, 50));
      if (units !== 0) {
        push({
          at: t,
          event_type: "adjustment",
          event_name: admin ? "Balance Correction" : "Goodwill Adjustment",
          event_note: admin ? `Ticket #${rng.int(10_000, 99_999)}` : "Retention gesture",
          units,
          payment_method: null,
          created_by: admin ? "Admin" : "VIP Manager",
          createdAfter: rng.int(60_000, 2 * HOUR),
        });
        cash += units;
      }
    } else {
      const game = style === "sports" ? rng.pick(SPORTS) : rng.pick(GAMES);
      const [betName, winName] =
        style === "sports"
          ? ["Sports Bet", "Sports Win"]
          : style === "live"
            ? ["Live Casino Bet", "Live Casino Win"]
            : ["Casino Bet", "Casino Win"];
      push({
        at: t,
        event_type: "bet",
        event_name: betName,
        event_note: game,
        units: -stake,
        payment_method: null,
        created_by: "System",
      });
      cash -= stake;
      if (bonus) {
        bonus.wrLeft -= stake;
        bonus.betsSince++;
      }
      if (produced < count && rng.chance(0.004)) {
        push({
          at: t + rng.int(HOUR, DAY),
          event_type: "refund",
          event_name: "Bet Refund",
          event_note: `Voided: ${game}`,
          units: stake,
          payment_method: null,
          created_by: rng.chance(0.7) ? "System" : "Admin",
        });
        cash += stake;
      } else if (produced < count && rng.chance(0.42)) {
        const multiplier = rng.chance(0.003) ? rng.int(20, 100) : 0.2 + rng.next() * 3.3; // ~85% return to player
        const units = Math.round(stake * multiplier);
        push({
          at: t + rng.int(1_000, style === "sports" ? 3 * HOUR : 8_000),
          event_type: "win",
          event_name: winName,
          event_note: game,
          units,
          payment_method: null,
          created_by: "System",
        });
        cash += units;
      }
      if (bonus && produced + 1 < count) {
        if (bonus.wrLeft <= 0) {
          // Wagering met: the bonus leaves the bonus wallet and lands in cash at the same instant.
          const when = t + 2_000;
          push({
            at: when,
            event_type: "bonus",
            event_name: "Bonus Converted",
            event_note: "Wagering requirement met",
            units: -bonus.amount,
            payment_method: null,
            created_by: "System",
          });
          push({
            at: when,
            event_type: "adjustment",
            event_name: "Bonus Conversion",
            event_note: "Bonus funds released to cash",
            units: bonus.amount,
            payment_method: null,
            created_by: "System",
          });
          cash += bonus.amount;
          bonus = null;
        } else if (bonus.betsSince > 60 && rng.chance(0.02)) {
          push({
            at: t + 2_000,
            event_type: "bonus",
            event_name: "Bonus Expired",
            event_note: "Wagering not completed in time",
            units: -bonus.amount,
            payment_method: null,
            created_by: "System",
          });
          bonus = null;
        }
      }
    }
  }
  return lastActivity;
}
