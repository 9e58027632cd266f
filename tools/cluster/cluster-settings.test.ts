import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readClusterSettings, redactUrl } from "./cluster-settings.ts";
import { clusterInstanceEnv, sharedSecrets } from "./instance-env.ts";

describe("cluster settings", () => {
  it("defaults: HAProxy on 8080, two instances after it, the cluster's own demo database", () => {
    const s = readClusterSettings({}, "/repo");
    expect(s).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      appPorts: [8081, 8082],
      proxySource: "127.0.0.2",
      stateDir: "/repo/.data/cluster",
      databaseUrl: "postgresql://postgres@127.0.0.1:5432/par_cluster",
      ownDatabase: true,
      redisUrl: "redis://127.0.0.1:6379",
      authMode: "demo",
    });
  });

  it("takes the operator's database as it is, and no authentication mode unless told", () => {
    const s = readClusterSettings({
      DATABASE_URL: "postgresql://app:pw@db:5432/players",
      CLUSTER_INSTANCES: "3",
      CLUSTER_PORT: "9000",
      CLUSTER_APP_PORT: "9100",
    });
    expect(s).toMatchObject({ ownDatabase: false, authMode: undefined, appPorts: [9100, 9101, 9102] });
    expect(redactUrl(s.databaseUrl)).toBe("postgresql://app:***@db:5432/players");
  });

  it("refuses bad values, naming each", () => {
    expect(() =>
      readClusterSettings({ CLUSTER_INSTANCES: "0", CLUSTER_PROXY_SOURCE: "proxy", CLUSTER_DATABASE: "a-b" }),
    ).toThrow(/CLUSTER_INSTANCES[\s\S]*CLUSTER_PROXY_SOURCE: must be an IP address[\s\S]*CLUSTER_DATABASE/);
    expect(() => readClusterSettings({ CLUSTER_PORT: "8081", CLUSTER_APP_PORT: "8080" })).toThrow(
      /must not include CLUSTER_PORT/,
    );
  });
});

describe("what the instances share", () => {
  it("trusts HAProxy's source address alone, and shares Redis and one session secret", () => {
    const env = clusterInstanceEnv(readClusterSettings({}), { NEXTAUTH_SECRET: "s".repeat(48) });
    expect(env).toMatchObject({
      TRUSTED_PROXIES: "127.0.0.2",
      REDIS_URL: "redis://127.0.0.1:6379",
      NEXTAUTH_SECRET: "s".repeat(48),
      AUTH_MODE: "demo",
      // The cluster's own database is reached as the local superuser: said explicitly (and warned at start).
      DB_ALLOW_PRIVILEGED_ROLE: "on",
    });
    const operator = clusterInstanceEnv(readClusterSettings({ DATABASE_URL: "postgresql://app@db/p" }), {
      NEXTAUTH_SECRET: "x",
    });
    expect(operator.DB_ALLOW_PRIVILEGED_ROLE).toBeUndefined();
    expect(operator.AUTH_MODE).toBeUndefined();
  });

  it("generates the session secret once, readable by its owner only, unless one is given", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "par-cluster-settings-"));
    try {
      const first = sharedSecrets(dir, {});
      expect(first.NEXTAUTH_SECRET.length).toBeGreaterThanOrEqual(32);
      expect(sharedSecrets(dir, {})).toEqual(first);
      expect(statSync(path.join(dir, "secrets.json")).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(path.join(dir, "secrets.json"), "utf8"))).toEqual(first);
      expect(sharedSecrets(dir, { NEXTAUTH_SECRET: "given" })).toEqual({ NEXTAUTH_SECRET: "given" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
