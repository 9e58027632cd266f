import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { importNdjson } from "../../tools/data/import-ndjson.ts";
import { playersNdjson, transactionsNdjson } from "../support/publisher.ts";
import type { WalletSim } from "../support/wallet-sim.ts";
import { compareReadModels, type ExactnessResult } from "./exactness.ts";

/**
 * The simulation's final states written as db:import files and imported into `referenceUrl` (an empty, migrated
 * database), then compared with the live read model at `liveUrl` for every simulated player.
 */
export async function checkAgainstImport(
  sim: WalletSim,
  liveUrl: string,
  referenceUrl: string,
  options: { copy?: boolean } = {},
): Promise<ExactnessResult> {
  const dir = mkdtempSync(path.join(tmpdir(), "par-exact-"));
  const live = new pg.Client({ connectionString: liveUrl });
  const reference = new pg.Client({ connectionString: referenceUrl });
  try {
    writeFileSync(path.join(dir, "players.ndjson"), playersNdjson(sim));
    writeFileSync(path.join(dir, "transactions.ndjson"), transactionsNdjson(sim));
    await reference.connect();
    const summary = await importNdjson(reference, {
      playersFile: path.join(dir, "players.ndjson"),
      transactionsFile: path.join(dir, "transactions.ndjson"),
      strict: true,
      parseWorkers: 0,
      ...(options.copy === false ? { copy: false } : {}),
    });
    if (!summary.committed) throw new Error("the reference import did not commit");
    await live.connect();
    return await compareReadModels(live, reference, [...sim.finalPlayers.keys()]);
  } finally {
    await live.end().catch(() => undefined);
    await reference.end().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
