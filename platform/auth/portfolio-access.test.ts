import { describe, expect, it } from "vitest";
import { parseBigWithdrawalAmounts } from "@/features/portfolio/data/portfolio-rules";
import { managerNameOf, portfolioAccess } from "./portfolio-access.ts";

/** VIP_MANAGER_SUBJECTS as platform/auth/vip-managers.ts hands it over: token subject → manager's name. */
const MANAGERS = new Map([
  ["00u-sarah", "Sarah Mitchell"],
  ["00u-david", "David Chen"],
]);

const caller = (
  roles: ("admin" | "vip_manager" | "support_agent")[],
  subject: string,
  name?: unknown,
  verified = true,
) => ({ roles, verified, subject, claims: name === undefined ? {} : { name } });

describe("portfolioAccess", () => {
  it("an admin reads any manager's book and must name one", () => {
    expect(portfolioAccess(caller(["admin"], "00u-alex", "Alex Admin"), "David Chen", MANAGERS)).toEqual({
      allowed: true,
      manager: "David Chen",
    });
    expect(portfolioAccess(caller(["admin"], "00u-alex"), undefined, MANAGERS)).toMatchObject({
      allowed: false,
      status: 400,
    });
  });

  it("a VIP manager reads their own book only, matched by the token's subject", () => {
    const sarah = caller(["vip_manager"], "00u-sarah", "Sarah Mitchell");
    expect(portfolioAccess(sarah, undefined, MANAGERS)).toEqual({ allowed: true, manager: "Sarah Mitchell" });
    expect(portfolioAccess(sarah, "Sarah Mitchell", MANAGERS)).toEqual({
      allowed: true,
      manager: "Sarah Mitchell",
    });
    expect(portfolioAccess(sarah, "David Chen", MANAGERS)).toMatchObject({ allowed: false, status: 403 });
    // Names match exactly: another spelling is another manager.
    expect(portfolioAccess(sarah, "sarah mitchell", MANAGERS)).toMatchObject({ allowed: false, status: 403 });
  });

  it("a display name is not an identity: the name of a manager under another subject gets no book", () => {
    // A user who renamed themselves "David Chen" at the identity provider.
    const impostor = caller(["vip_manager"], "00u-sarah", "David Chen");
    expect(portfolioAccess(impostor, undefined, MANAGERS)).toEqual({
      allowed: true,
      manager: "Sarah Mitchell",
    });
    expect(portfolioAccess(impostor, "David Chen", MANAGERS)).toMatchObject({ allowed: false, status: 403 });
    // An unmapped subject carrying a manager's exact name reads nothing.
    const unmapped = caller(["vip_manager"], "00u-someone-else", "Sarah Mitchell");
    expect(portfolioAccess(unmapped, undefined, MANAGERS)).toMatchObject({ allowed: false, status: 403 });
    expect(portfolioAccess(unmapped, "Sarah Mitchell", MANAGERS)).toMatchObject({
      allowed: false,
      status: 403,
    });
    // The right subject, whatever its name claim says (or without one).
    expect(portfolioAccess(caller(["vip_manager"], "00u-david"), undefined, MANAGERS)).toEqual({
      allowed: true,
      manager: "David Chen",
    });
  });

  it("fails closed: no mapping, an unverified token, a support agent, no role", () => {
    expect(portfolioAccess(caller(["vip_manager"], "00u-sarah"), undefined, new Map())).toMatchObject({
      allowed: false,
      status: 403,
    });
    expect(
      portfolioAccess(caller(["vip_manager"], "00u-sarah", "Sarah Mitchell", false), undefined, MANAGERS),
    ).toMatchObject({ allowed: false, status: 403 });
    expect(
      portfolioAccess(caller(["support_agent"], "00u-sarah", "Tom Becker"), "Sarah Mitchell", MANAGERS),
    ).toMatchObject({ allowed: false, status: 403 });
    expect(portfolioAccess(caller([], "00u-sarah"), "Sarah Mitchell", MANAGERS)).toMatchObject({
      allowed: false,
      status: 403,
    });
    expect(managerNameOf(caller(["vip_manager"], "00u-sarah", "Sarah Mitchell", false), MANAGERS)).toBeNull();
    expect(managerNameOf(caller(["vip_manager"], "00u-sarah"), MANAGERS)).toBe("Sarah Mitchell");
  });
});

describe("parseBigWithdrawalAmounts", () => {
  it("reads CURRENCY:amount pairs exactly", () => {
    const amounts = parseBigWithdrawalAmounts(" EUR:5000, btc:0.10000000 ,JPY:750000");
    expect(amounts.map((a) => `${a.currency}:${a.amount.digits}`)).toEqual([
      "EUR:5000",
      "BTC:0.1",
      "JPY:750000",
    ]);
    expect(parseBigWithdrawalAmounts("")).toEqual([]);
  });
});
