import type { JWTPayload } from "jose";
import type { Role } from "./roles.ts";

/** Who is asking for a portfolio: the principal's roles and, when its token verified, its claims. */
export interface PortfolioCaller {
  roles: readonly Role[];
  verified: boolean;
  claims: JWTPayload | null;
}

export type PortfolioAccess =
  | { allowed: true; manager: string }
  | { allowed: false; status: 400 | 403; detail: string };

/**
 * The VIP manager a signed-in user is: profiles name their manager by display name (`vip_manager`), so the verified
 * token's `name` claim, trimmed (the same mapping as the search's `assigned=me`). null when the token names nobody.
 */
export function managerNameOf(caller: PortfolioCaller): string | null {
  const name = caller.verified ? caller.claims?.name : undefined;
  return typeof name === "string" && name.trim() ? name.trim() : null;
}

/**
 * Whose book a caller may read (docs/decisions.md, "Who reads a portfolio"). Fail closed: an admin reads any
 * manager's book and must name it; a VIP manager reads only their own (by the `name` claim; `manager` may be left
 * out or must equal it); anyone else (a support agent, a client with scopes but no role, demo tokens) reads none.
 */
export function portfolioAccess(caller: PortfolioCaller, requested: string | undefined): PortfolioAccess {
  if (caller.roles.includes("admin")) {
    if (requested !== undefined) return { allowed: true, manager: requested };
    return {
      allowed: false,
      status: 400,
      detail: "is required for an admin: name the manager whose book to read",
    };
  }
  if (caller.roles.includes("vip_manager")) {
    const own = managerNameOf(caller);
    if (own === null) {
      return {
        allowed: false,
        status: 403,
        detail: "cannot be matched: the sign-in does not carry the manager's name, so no book is theirs",
      };
    }
    if (requested === undefined || requested === own) return { allowed: true, manager: own };
    return {
      allowed: false,
      status: 403,
      detail: "names another manager: a VIP manager reads only their own book",
    };
  }
  return {
    allowed: false,
    status: 403,
    detail: "is not readable by this caller: portfolios are for VIP managers (their own) and admins",
  };
}
