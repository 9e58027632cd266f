import { expect, test } from "@playwright/test";
import { listeningAddresses } from "../../test/support/listening-sockets.ts";
import {
  type AppProcess,
  appBase,
  appsStoppedAfterAll,
  httpGet,
  isFailure,
  postgresTestDatabase,
} from "./harness.ts";

/*
 * Demo mode accepts any bearer token, so the quick start must stay this machine's. A web page can rebind its own
 * DNS name to 127.0.0.1 and then read the server as same-origin: its requests carry its own name as Host.
 */
const start = appsStoppedAfterAll();
let app: AppProcess;

test.beforeAll(async () => {
  app = await start(appBase + 9, {
    DATABASE_URL: postgresTestDatabase(),
    AUTH_MODE: "demo",
    LOG_LEVEL: "warn",
  });
});

const DEMO_CALLER = { Authorization: "Bearer any", "X-Session-ID": "rebinding" };

async function get(path: string, host: string) {
  const res = await httpGet(`${app.url}${path}`, { ...DEMO_CALLER, Host: host });
  if (isFailure(res)) throw new Error(`${path} (Host: ${host}): ${res.error}`);
  return res;
}

test("a rebound DNS name gets 421 on the API and the pages; this machine's names are served", async () => {
  const { port } = new URL(app.url);
  for (const path of ["/api/v1/players/P000007", "/api/v1/players?q=a", "/sign-in", "/"]) {
    // Before: 200 with the player's profile (and the pages), as for the server's own name.
    const res = await get(path, `rebound.example:${port}`);
    expect(res.status, path).toBe(421);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(JSON.parse(res.body)).toMatchObject({
      type: expect.stringMatching(/^https?:\/\/[^/]+\/problems\/misdirected-request$/),
      status: 421,
      errors: [{ name: "Host", in: "header" }],
    });
  }
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "[::1]"]) {
    expect((await get("/api/v1/players/P000007", host)).status, host).toBe(200);
  }
});

test("HOSTNAME from the environment (Docker sets it) does not move the demo server off loopback", async () => {
  test.skip(process.platform !== "linux", "reads /proc/net");
  // Docker sets HOSTNAME to the container's name, which resolves to its network address; 0.0.0.0 stands for any
  // such value here. No --hostname argument: the launcher decides, as under `npm start`.
  const exposed = await start(
    appBase + 10,
    { DATABASE_URL: postgresTestDatabase(), AUTH_MODE: "demo", LOG_LEVEL: "warn", HOSTNAME: "0.0.0.0" },
    { hostname: null },
  );
  // Before: the launcher passed HOSTNAME on as --hostname, and the server listened on every interface.
  expect(new Set(await listeningAddresses(Number(new URL(exposed.url).port)))).toEqual(new Set(["0100007F"]));
  expect(exposed.output()).toContain("Demo mode listens on 127.0.0.1 only");
  expect(exposed.output()).toContain("HOSTNAME (0.0.0.0) is not used");
});
