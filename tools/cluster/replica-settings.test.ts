import { describe, expect, it } from "vitest";
import { readClusterSettings } from "./cluster-settings.ts";
import { readReplicaSettings, standbyUrlFor } from "./replica-settings.ts";

describe("replica settings", () => {
  it("defaults to a standby of the local server on 5433, its slot named as its cluster", () => {
    expect(readReplicaSettings({})).toEqual({
      primaryUrl: "postgresql://postgres@127.0.0.1:5432/postgres",
      port: 5433,
      cluster: "par_replica",
      slot: "par_replica",
      standbyUrl: "postgresql://postgres@127.0.0.1:5433/postgres",
    });
  });

  it("names every bad variable", () => {
    expect(() => readReplicaSettings({ REPLICA_PORT: "70000", REPLICA_CLUSTER: "Bad-Name" })).toThrow(
      /REPLICA_PORT[\s\S]*REPLICA_CLUSTER: lower-case letters, digits and _/,
    );
  });

  it("points a database URL at the standby: same user, password and database, the standby's port", () => {
    expect(standbyUrlFor("postgresql://app:s3cret@db.example:5432/players?sslmode=disable", 5433)).toBe(
      "postgresql://app:s3cret@127.0.0.1:5433/players?sslmode=disable",
    );
  });

  it("cluster:up makes a standby only when asked", () => {
    expect(readClusterSettings({}).replica).toBe(false);
    expect(readClusterSettings({ CLUSTER_REPLICA: "on" }).replica).toBe(true);
    expect(() => readClusterSettings({ CLUSTER_REPLICA: "yes" })).toThrow(/CLUSTER_REPLICA/);
  });
});
