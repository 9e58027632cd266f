/*
 * The benchmark's baseline: a minimal HTTP server (node:http + pg, no framework) answering the product's
 * read endpoints with the straightforward SQL (LIMIT/OFFSET plus count(*); the export loads every matching
 * row, then writes CSV). No authentication, validation, audit or rate limiting: it is the floor to compare with.
 *
 *   DATABASE_URL=… node --import tsx tools/bench/baseline-server.ts --port 3341
 */
import http from "node:http";
import { pathToFileURL } from "node:url";
import pg from "pg";
import {
  baselineExportSql,
  baselineListSql,
  baselinePortfolioSql,
  baselineSearchSql,
  baselineSummarySql,
  parseBaselineQuery,
  TRANSACTION_COLUMNS,
} from "./baseline-sql.ts";
import { csvRow } from "./csv.ts";
import { BENCH_AS_OF } from "./product-posture.ts";

const ROUTE = /^\/api\/v1\/players\/([^/]+)(\/transactions(\/export)?|\/summary)?$/;

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function playerExists(pool: pg.Pool, id: string): Promise<boolean> {
  const { rowCount } = await pool.query("SELECT 1 FROM players WHERE id = $1", [id]);
  return (rowCount ?? 0) > 0;
}

async function writeCsv(res: http.ServerResponse, rows: Record<string, unknown>[]): Promise<void> {
  res.writeHead(200, { "content-type": "text/csv; charset=utf-8" });
  res.write(csvRow(TRANSACTION_COLUMNS));
  const CHUNK = 1000;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const text = rows
      .slice(i, i + CHUNK)
      .map((row) => csvRow(TRANSACTION_COLUMNS.map((c) => row[c])))
      .join("");
    // Respect back-pressure from a slow client.
    if (!res.write(text)) await new Promise((resolve) => res.once("drain", resolve));
  }
  res.end();
}

export function createBaselineServer(pool: pg.Pool): http.Server {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://baseline");
    void (async () => {
      if (url.pathname === "/health") return send(res, 200, { status: "ok" });
      if (req.method === "GET" && url.pathname === "/api/v1/players") {
        const sql = baselineSearchSql(url.searchParams.get("q") ?? "");
        const [page, count, transactions] = await Promise.all([
          pool.query(sql.rows),
          pool.query(sql.count),
          pool.query(sql.transactions),
        ]);
        return send(res, 200, {
          players: page.rows,
          total: Number(count.rows[0]?.total ?? 0),
          transactions: transactions.rows,
        });
      }
      if (url.pathname === "/api/v1/portfolio") {
        const { rows } = await pool.query(
          baselinePortfolioSql(url.searchParams.get("manager") ?? "", BENCH_AS_OF),
        );
        return send(res, 200, { players: rows });
      }
      const match = ROUTE.exec(url.pathname);
      if (req.method !== "GET" || !match) return send(res, 404, { title: "Not Found" });
      const playerId = decodeURIComponent(match[1] as string);
      if (!match[2]) {
        const { rows } = await pool.query("SELECT * FROM players WHERE id = $1", [playerId]);
        return rows[0] ? send(res, 200, rows[0]) : send(res, 404, { title: "Not Found" });
      }
      if (match[2] === "/summary") {
        const { rows } = await pool.query(baselineSummarySql(playerId, url.searchParams.get("period")));
        return rows[0] ? send(res, 200, rows[0]) : send(res, 404, { title: "Not Found" });
      }
      let query: ReturnType<typeof parseBaselineQuery>;
      try {
        query = parseBaselineQuery(url.searchParams);
      } catch (error) {
        return send(res, 400, { title: "Bad Request", detail: (error as Error).message });
      }
      if (match[3]) {
        const { rows } = await pool.query(baselineExportSql(playerId, query));
        if (rows.length === 0 && !(await playerExists(pool, playerId))) {
          return send(res, 404, { title: "Not Found" });
        }
        return writeCsv(res, rows);
      }
      const sql = baselineListSql(playerId, query);
      const [page, count] = await Promise.all([pool.query(sql.rows), pool.query(sql.count)]);
      const total = Number(count.rows[0]?.total ?? 0);
      if (total === 0 && !(await playerExists(pool, playerId))) return send(res, 404, { title: "Not Found" });
      send(res, 200, {
        transactions: page.rows,
        total,
        limit: query.limit,
        offset: query.offset,
        has_more: query.offset + page.rows.length < total,
      });
    })().catch((error: Error) => {
      if (res.headersSent) res.destroy(error);
      else send(res, 500, { title: "Internal Server Error", detail: error.message });
    });
  });
}

/** Starts the baseline on 127.0.0.1:port with a pool as large as the product's default (DB_POOL_SIZE 10). */
export async function startBaselineServer(databaseUrl: string, port: number, poolSize = 10) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const server = createBaselineServer(pool);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await pool.end();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const portArg = process.argv.indexOf("--port");
  const port = Number(portArg >= 0 ? process.argv[portArg + 1] : (process.env.PORT ?? 3341));
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error("baseline-server: set DATABASE_URL");
    process.exit(2);
  }
  const server = await startBaselineServer(databaseUrl, port);
  console.log(`baseline listening on ${server.url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void server.close().then(() => process.exit(0));
    });
  }
}
