import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, type TestInfo } from "@playwright/test";
import { DEMO_CREDENTIALS } from "../../platform/auth/demo-credentials.ts";
import type { Role } from "../../platform/auth/roles.ts";
import { type DecimalTree, parseWire } from "../../platform/client/wire-codec.ts";
import { DISPLAY_LOCALE } from "../../platform/format/locale.ts";

export const WHALE = "P000007";

export function demoAccount(role: Role = "support_agent") {
  const account = DEMO_CREDENTIALS.find((c) => c.role === role);
  if (!account) throw new Error(`no demo account for ${role}`);
  return account;
}

/** Waits until React has hydrated the page (see platform/ui/hydration-marker.tsx): before, clicks do nothing. */
export async function ready(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Nothing on the page is wider than the screen: the document does not scroll sideways. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The page's uncaught errors and console errors from now on. */
export function recordPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}

/** Opens a page and waits until it responds to input. */
export async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await ready(page);
}

/** Signs in through the form on the sign-in page, as a person would. */
export async function signInWithForm(page: Page, role: Role = "support_agent"): Promise<void> {
  const { username, password } = demoAccount(role);
  await ready(page);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * Signs the page's browser context in without the form (next-auth's credentials callback, the same
 * request the form makes): fast set-up for tests about other pages.
 */
export async function signIn(page: Page, role: Role = "support_agent"): Promise<void> {
  const { username, password } = demoAccount(role);
  const csrf = await page.request.get("/api/auth/csrf");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await page.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, username, password, json: "true" },
  });
  expect(response.ok()).toBe(true);
  const session = await (await page.request.get("/api/auth/session")).json();
  expect(session?.user?.role).toBe(role);
}

/**
 * Calls the API as the signed-in browser does: with the app-issued token and the session id.
 * Money comes back as exact decimal strings where `decimals` (the response's entry in platform/client/wire-decimals.ts)
 * says, as the page receives it.
 */
export async function apiGet<T = unknown>(
  request: APIRequestContext,
  path: string,
  decimals: DecimalTree,
): Promise<T> {
  const tokenResponse = await request.get("/api/session/token");
  expect(tokenResponse.status()).toBe(200);
  const { access_token, session_id } = (await tokenResponse.json()) as {
    access_token: string;
    session_id: string;
  };
  const response = await request.get(`/api/v1${path}`, {
    headers: { Authorization: `Bearer ${access_token}`, "X-Session-ID": session_id },
  });
  expect(response.status(), `GET ${path}`).toBe(200);
  return parseWire(await response.text(), decimals) as T;
}

/**
 * Formats like the page does (the browser's Intl, in the display locale). `minorUnits`: rounded to
 * the currency's minor unit, as the page shows derived figures such as averages.
 */
export async function formatMoneyInPage(
  page: Page,
  amount: number | string,
  currency: string,
  signed = false,
  minorUnits = false,
): Promise<string> {
  return page.evaluate(
    ({ amount, currency, signed, minorUnits, locale }) => {
      const iso = Intl.supportedValuesOf("currency").includes(currency);
      const signDisplay = signed ? "exceptZero" : "auto";
      const f = iso
        ? new Intl.NumberFormat(locale, {
            style: "currency",
            currency,
            ...(minorUnits ? {} : { maximumFractionDigits: 8 }),
            signDisplay,
          })
        : new Intl.NumberFormat(locale, {
            minimumFractionDigits: 8,
            maximumFractionDigits: 8,
            signDisplay,
          });
      const text = f.format(String(amount) as Intl.StringNumericLiteral);
      return iso ? text : `${text} ${currency}`;
    },
    { amount: String(amount), currency, signed, minorUnits, locale: DISPLAY_LOCALE },
  );
}

/** A date and time as the page writes it in `timeZone` (the browser's Intl, the display locale); `seconds` for the audit trail. */
export function formatDateTimeInPage(
  page: Page,
  iso: string,
  timeZone: string,
  seconds = false,
): Promise<string> {
  return page.evaluate(
    ({ iso, timeZone, seconds, locale }) =>
      new Intl.DateTimeFormat(locale, {
        timeZone,
        year: "numeric",
        month: "short",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        ...(seconds ? { second: "2-digit" } : {}),
        hourCycle: "h23",
      }).format(new Date(iso)),
    { iso, timeZone, seconds, locale: DISPLAY_LOCALE },
  );
}

/** The rows of the transactions table as the user reads them, cell by cell. */
export async function tableRows(page: Page): Promise<Record<string, string>[]> {
  return page
    .getByTestId("transaction-row")
    .evaluateAll((rows) =>
      rows.map((row) =>
        Object.fromEntries(
          [...row.querySelectorAll("td")].map((td) => [
            td.dataset.column ?? "",
            td.textContent?.trim() ?? "",
          ]),
        ),
      ),
    );
}

/** The transactions on screen: table rows at desktop widths, cards below 768 px. */
export function visibleTransactions(page: Page) {
  return page
    .locator('[data-testid="transaction-row"], [data-testid="transaction-card"]')
    .locator("visible=true");
}

/** A count as the page writes it (the display locale's grouping): 24,000. */
export function formatCountInPage(page: Page, n: number): Promise<string> {
  return page.evaluate(
    ({ n, locale }) => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(n),
    { n, locale: DISPLAY_LOCALE },
  );
}

/**
 * The serious and critical axe violations (WCAG 2.1 A/AA and best practice) of the page as it is, or of the
 * part `include` selects.
 */
export async function seriousViolations(page: Page, include?: string) {
  // A URL change (the lookup writes ?q=) is a router navigation whose metadata streams in: for a moment the
  // document has no <title>. Axe judges the settled page, so wait for the title to be back first.
  await page.waitForFunction(() => document.title !== "");
  const axe = new AxeBuilder({ page }).withTags([
    "wcag2a",
    "wcag2aa",
    "wcag21a",
    "wcag21aa",
    "best-practice",
  ]);
  const results = await (include ? axe.include(include) : axe).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(" ")),
    }));
}

/** A screenshot in the project's screenshots folder, attached to the report; `fullPage: false` keeps the screen's view. */
export async function capture(page: Page, testInfo: TestInfo, name: string, fullPage = true) {
  const file = path.join(testInfo.project.outputDir, "screenshots", `${name}.png`);
  const body = await page.screenshot({ path: file, fullPage });
  await testInfo.attach(name, { body, contentType: "image/png" });
}

/** What a route answers to stand for a failed API call: an RFC 9457 problem with its request id. */
export function problemResponse(
  problem: { status: number; type: string; title: string; detail: string; request_id: string },
  headers: Record<string, string> = {},
) {
  return {
    status: problem.status,
    contentType: "application/problem+json",
    headers: { "X-Request-ID": problem.request_id, ...headers },
    body: JSON.stringify(problem),
  };
}
