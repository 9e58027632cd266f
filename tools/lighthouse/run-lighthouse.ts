/**
 * `npm run lighthouse`: Lighthouse (npm) in Debian's Chromium against the production build, signed in as a
 * demo user, mobile and desktop presets, the median of N runs per page; prints the figures the issue's
 * targets name. First-load JS is the compressed transfer size of the page's own scripts in Lighthouse's
 * network records (see lighthouse-report.ts).
 *
 * The reference (`--reference`, default /problems: a static page of the same build, with no data and no
 * client state) is the stack's own floor on this machine, measured in the same minutes: run i of every
 * page and of the reference come one after another, preset by preset, so a busy or slow machine shows in
 * the reference too. `--reference none` leaves it out.
 *
 *   npm run build && npm run lighthouse [-- --url http://127.0.0.1:4050] [--runs 3] [--role vip_manager]
 *     [--pages /players/P000007,/,/portfolio] [--reference /problems] [--out .data/lighthouse]
 *
 * Without --url it starts the build itself on LIGHTHOUSE_PORT (default 4050) with a fresh embedded
 * database (demo data, AUTH_MODE=demo) and stops it afterwards.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { DEMO_CREDENTIALS } from "../../platform/auth/demo-credentials.ts";
import type { Role } from "../../platform/auth/roles.ts";
import { type AppProcess, startApp } from "../../test/support/app-process.ts";
import { CHROMIUM_FLAGS } from "../../test/support/chromium-flags.ts";
import {
  figuresOf,
  formatTable,
  type LighthouseResult,
  medianFigures,
  type RunFigures,
  type TableRow,
} from "./lighthouse-report.ts";

const run = promisify(execFile);

const CHROME_FLAGS = ["--headless", ...CHROMIUM_FLAGS];
const PRESETS = ["mobile", "desktop"] as const;
const MAX_ATTEMPTS = 3;

function options() {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      runs: { type: "string", default: "3" },
      role: { type: "string", default: "vip_manager" },
      pages: { type: "string", default: "/players/P000007,/,/portfolio" },
      reference: { type: "string", default: "/problems" },
      out: { type: "string", default: ".data/lighthouse" },
    },
  });
  const role = values.role as Role;
  const account = DEMO_CREDENTIALS.find((c) => c.role === role);
  if (!account) throw new Error(`--role: no demo account for "${values.role}"`);
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs: a positive integer");
  const reference = values.reference === "none" ? null : values.reference;
  return { ...values, runs, account, reference, pages: values.pages.split(",").filter(Boolean) };
}

/** The cookies a response sets, as one Cookie header (name=value pairs). */
function cookiesOf(response: Response, previous = ""): string {
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((c) => c.split("=", 2) as [string, string]),
  );
  for (const line of response.headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const eq = pair.indexOf("=");
    jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** Signs in with a demo account through next-auth's credentials callback, as the sign-in form does. */
async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const csrfResponse = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  let cookie = cookiesOf(csrfResponse);
  const callback = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams({ csrfToken, username, password, json: "true" }),
  });
  cookie = cookiesOf(callback, cookie);
  const session = (await (
    await fetch(`${baseUrl}/api/auth/session`, { headers: { Cookie: cookie } })
  ).json()) as {
    user?: { role?: string };
  };
  if (!session.user?.role) throw new Error(`signing in as ${username} failed (${callback.status})`);
  return cookie;
}

async function lighthouseOnce(
  url: string,
  preset: (typeof PRESETS)[number],
  cookie: string,
  outFile: string,
): Promise<RunFigures> {
  const args = [
    path.join("node_modules", "lighthouse", "cli", "index.js"),
    url,
    "--quiet",
    "--output=json",
    `--output-path=${outFile}`,
    "--only-categories=performance,accessibility,best-practices",
    `--chrome-flags=${CHROME_FLAGS.join(" ")}`,
    `--extra-headers=${JSON.stringify({ Cookie: cookie })}`,
    ...(preset === "desktop" ? ["--preset=desktop"] : []),
  ];
  // Lighthouse now and then fails to record a trace on a loaded machine (NO_NAVSTART): try that run again.
  for (let attempt = 1; ; attempt++) {
    try {
      await run(process.execPath, args, {
        env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
        maxBuffer: 64 * 1024 * 1024,
      });
      return figuresOf(JSON.parse(await readFile(outFile, "utf8")) as LighthouseResult);
    } catch (error) {
      // The command line holds the session cookie: report only Lighthouse's own words.
      const stderr = (error as { stderr?: string }).stderr?.trim().split("\n").at(-1) ?? "failed";
      if (attempt >= MAX_ATTEMPTS) throw new Error(`Lighthouse on ${url} (${preset}): ${stderr}`);
      process.stderr.write(`${url} ${preset}: ${stderr}; trying again\n`);
    }
  }
}

async function startOwnApp(): Promise<{ app: AppProcess; dataDir: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "lighthouse-pglite-"));
  const port = Number(process.env.LIGHTHOUSE_PORT ?? 4050);
  const app = await startApp(
    port,
    { EMBEDDED_DB_DIR: dataDir, AUTH_MODE: "demo", LOG_LEVEL: "warn" },
    240_000,
  );
  return { app, dataDir };
}

async function main(): Promise<void> {
  const opts = options();
  const own = opts.url ? null : await startOwnApp();
  const baseUrl = opts.url ?? own?.app.url ?? "";
  try {
    const cookie = await signIn(baseUrl, opts.account.username, opts.account.password);
    await mkdir(opts.out, { recursive: true });
    const pages = [
      ...(opts.reference ? [opts.reference] : []),
      ...opts.pages.filter((p) => p !== opts.reference),
    ];
    // One unmeasured load first, so no run pays for the server's first compile of a route or cold caches.
    for (const page of pages) {
      await fetch(`${baseUrl}${page}`, { headers: { Cookie: cookie } }).then((r) => r.text());
    }
    const rows: TableRow[] = [];
    for (const preset of PRESETS) {
      const measured = pages.map((page) => ({ page, runs: [] as RunFigures[] }));
      for (let i = 1; i <= opts.runs; i++) {
        for (const { page, runs } of measured) {
          const file = path.join(opts.out, `${page.replace(/\W+/g, "_") || "root"}-${preset}-${i}.json`);
          const figures = await lighthouseOnce(`${baseUrl}${page}`, preset, cookie, file);
          runs.push(figures);
          process.stderr.write(`${page} ${preset} run ${i}: performance ${figures.performance}\n`);
        }
      }
      for (const { page, runs } of measured) {
        const reference = page === opts.reference;
        rows.push({ page, preset, runs: runs.length, figures: medianFigures(runs), reference });
      }
    }
    const table = formatTable(rows);
    await writeFile(path.join(opts.out, "table.md"), `${table}\n`);
    console.log(`Lighthouse 12, median of ${opts.runs} run(s), signed in as ${opts.account.role}:\n`);
    console.log(table);
  } finally {
    if (own) {
      await own.app.stop();
      await rm(own.dataDir, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
