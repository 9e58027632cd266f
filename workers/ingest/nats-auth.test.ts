import { describe, expect, it } from "vitest";
import { checkNatsAccess, natsAuthOptions, parseNatsAuth } from "./nats-auth.ts";

// The settings' rules; the server side (refusals, accounts) is test/live/nats-access.int.test.ts.
describe("NATS credentials settings", () => {
  it("takes one kind of credentials, a user with its password", () => {
    expect(() => parseNatsAuth({ NATS_USER: "ingest" })).toThrow(/NATS_USER and NATS_PASSWORD together/);
    expect(() => parseNatsAuth({ NATS_TOKEN: "t", NATS_CREDS: "/x.creds" })).toThrow(/set one of NATS_CREDS/);
    expect(parseNatsAuth({})).toEqual({ NATS_ALLOW_ANONYMOUS: "off" });
    expect(() => parseNatsAuth({ NATS_ALLOW_ANONYMOUS: "yes" })).toThrow(/NATS_ALLOW_ANONYMOUS/);
  });

  it("become connection options", () => {
    expect(natsAuthOptions({ NATS_USER: "u", NATS_PASSWORD: "p", NATS_TLS_CA: "/ca.pem" })).toEqual({
      user: "u",
      pass: "p",
      tls: { caFile: "/ca.pem" },
    });
    expect(natsAuthOptions({ NATS_TOKEN: "t" })).toEqual({ token: "t" });
    expect(natsAuthOptions({ NATS_CREDS: "/x.creds" }).authenticator).toBeTypeOf("function");
    expect(natsAuthOptions({})).toEqual({});
  });

  it("without credentials: refused unless NATS_ALLOW_ANONYMOUS=on, which warns", async () => {
    const url = "nats://127.0.0.1:1";
    const refused = await checkNatsAccess(url, parseNatsAuth({}));
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      for (const name of ["NATS_CREDS", "NATS_USER", "NATS_TOKEN"]) expect(refused.reason).toContain(name);
    expect(await checkNatsAccess(url, parseNatsAuth({ NATS_ALLOW_ANONYMOUS: "on" }))).toEqual({
      ok: true,
      warning: expect.stringContaining("NATS_ALLOW_ANONYMOUS=on"),
    });
  });

  it("with credentials, a server that cannot be asked is refused too (fail closed)", async () => {
    const access = await checkNatsAccess("nats://127.0.0.1:1", parseNatsAuth({ NATS_TOKEN: "t" }));
    expect(access).toEqual({ ok: false, reason: expect.stringContaining("could not check") });
  });
});
