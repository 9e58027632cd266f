import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";

/*
 * The test servers run in demo mode without HOSTNAME (playwright.config.ts), so they must listen on loopback only.
 * Read from the kernel's socket tables, never by connecting to another address of this machine.
 */

/** Local addresses of the TCP sockets listening on `port`, from /proc/net/tcp and tcp6 (hex, as the kernel writes). */
async function listeningAddresses(port: number): Promise<string[]> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const found: string[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const lines = (await readFile(table, "utf8").catch(() => "")).split("\n").slice(1);
    for (const line of lines) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [address, localPort] = local?.split(":") ?? [];
      if (state === "0A" && localPort === hexPort && address) found.push(address); // 0A = LISTEN
    }
  }
  return found;
}

test("demo mode listens on 127.0.0.1 only, not on every interface", async ({ baseURL }) => {
  test.skip(process.platform !== "linux", "reads /proc/net");
  const addresses = await listeningAddresses(Number(new URL(baseURL ?? "").port));
  expect(addresses.length).toBeGreaterThan(0);
  // 0100007F is 127.0.0.1 in /proc/net/tcp's byte order; 0.0.0.0 or :: (all zeros) would mean every interface.
  expect(new Set(addresses)).toEqual(new Set(["0100007F"]));
});
