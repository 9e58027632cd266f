import { describe, expect, it } from "vitest";
import { parseBigWithdrawalAmounts } from "@/lib/players/portfolio-rules";
import { managerNameOf, portfolioAccess } from "./portfolio-access.ts";

const caller = (roles: ("admin" | "vip_manager" | "support_agent")[], name?: unknown, verified = true) => ({
  roles,
  verified,
  claims: name === undefined ? {} : { name },
});

describe("portfolioAccess", () => {
  it("an admin reads any manager's book and must name one", () => {
    expect(portfolioAccess(caller(["admin"], "Alex Admin"), "David Chen")).toEqual({
      allowed: true,
      manager: "David Chen",
    });
    expect(portfolioAccess(caller(["admin"]), undefined)).toMatchObject({ allowed: false, status: 400 });
  });

  it("a VIP manager reads their own book only, matched by the token's name", () => {
    const sarah = caller(["vip_manager"], "  Sarah Mitchell ");
    expect(portfolioAccess(sarah, undefined)).toEqual({ allowed: true, manager: "Sarah Mitchell" });
    expect(portfolioAccess(sarah, "Sarah Mitchell")).toEqual({ allowed: true, manager: "Sarah Mitchell" });
    expect(portfolioAccess(sarah, "David Chen")).toMatchObject({ allowed: false, status: 403 });
    // Names match exactly: another spelling is another manager.
    expect(portfolioAccess(sarah, "sarah mitchell")).toMatchObject({ allowed: false, status: 403 });
  });

  it("fails closed: no name, an unverified token, a support agent, no role", () => {
    expect(portfolioAccess(caller(["vip_manager"]), undefined)).toMatchObject({
      allowed: false,
      status: 403,
    });
    expect(portfolioAccess(caller(["vip_manager"], "   "), undefined)).toMatchObject({ allowed: false });
    expect(portfolioAccess(caller(["vip_manager"], 42), undefined)).toMatchObject({ allowed: false });
    expect(portfolioAccess(caller(["vip_manager"], "Sarah Mitchell", false), undefined)).toMatchObject({
      allowed: false,
      status: 403,
    });
    expect(portfolioAccess(caller(["support_agent"], "Tom Becker"), "Tom Becker")).toMatchObject({
      allowed: false,
      status: 403,
    });
    expect(portfolioAccess(caller([], "Someone"), "Someone")).toMatchObject({ allowed: false, status: 403 });
    expect(managerNameOf(caller(["vip_manager"], "Sarah Mitchell", false))).toBeNull();
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
