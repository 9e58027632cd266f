import { expect, test } from "@playwright/test";
import { listeningAddresses } from "../../test/support/listening-sockets.ts";

/*
 * The test servers run in demo mode without LISTEN_HOST (playwright.config.ts), so they must listen on loopback only.
 */

test("demo mode listens on 127.0.0.1 only, not on every interface", async ({ baseURL }) => {
  test.skip(process.platform !== "linux", "reads /proc/net");
  const addresses = await listeningAddresses(Number(new URL(baseURL ?? "").port));
  expect(addresses.length).toBeGreaterThan(0);
  // 0100007F is 127.0.0.1 in /proc/net/tcp's byte order; 0.0.0.0 or :: (all zeros) would mean every interface.
  expect(new Set(addresses)).toEqual(new Set(["0100007F"]));
});
