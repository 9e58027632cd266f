import type { PortfolioFlagRules } from "@/features/portfolio/schema/portfolio";
import { getEnv } from "@/platform/env/env";
import { ExactNumber } from "@/platform/schemas/exact-number";

/** `EUR:5000, BTC:0.1` → [{ EUR, 5000 }, { BTC, 0.1 }], exact (the env schema has checked the form). */
export function parseBigWithdrawalAmounts(text: string): PortfolioFlagRules["big_withdrawal_amounts"] {
  const amounts = new Map<string, ExactNumber>();
  for (const item of text.split(",")) {
    const [currency, amount] = item.trim().split(":");
    if (!currency || !amount) continue;
    amounts.set(currency.toUpperCase(), new ExactNumber(amount));
  }
  return [...amounts].map(([currency, amount]) => ({ currency, amount }));
}

/** The flags' thresholds as configured (PORTFOLIO_* in platform/env/env.ts, docs/configuration.md). */
export function portfolioRulesFromEnv(): PortfolioFlagRules {
  const env = getEnv();
  return {
    churn_days: env.PORTFOLIO_CHURN_DAYS,
    big_withdrawal_amounts: parseBigWithdrawalAmounts(env.PORTFOLIO_BIG_WITHDRAWAL_AMOUNTS),
    big_withdrawal_percent: env.PORTFOLIO_BIG_WITHDRAWAL_PERCENT,
    deposit_spike_factor: env.PORTFOLIO_DEPOSIT_SPIKE_FACTOR,
  };
}

/** The portfolio's "now": PORTFOLIO_AS_OF when configured (the embedded demo's clock), else the server's. */
export function portfolioAsOf(): Date {
  const configured = getEnv().PORTFOLIO_AS_OF;
  return configured ? new Date(configured) : new Date();
}
