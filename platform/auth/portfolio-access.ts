import type { JWTPayload } from "jose";
import type { Role } from "./roles.ts";

/** Who is asking for a portfolio: the principal's roles and subject, and whether its token verified. */
export interface PortfolioCaller {
  roles: readonly Role[];
  verified: boolean;
  subject: string;
  claims: JWTPayload | null;
}

export type PortfolioAccess =
  | { allowed: true; manager: string }
  | { allowed: false; status: 400 | 403; detail: string };

/**
 * The VIP manager a signed-in user is: their verified token's subject mapped to a manager's name
 * (`managers`, from VIP_MANAGER_SUBJECTS: platform/auth/vip-managers.ts), never the token's `name`, which identity
 * providers let users edit. The same mapping picks the search's `assigned=me`. null when the subject is no manager.
 */
export function managerNameOf(caller: PortfolioCaller, managers: ReadonlyMap<string, string>): string | null {
  if (!caller.verified) return null;
  return managers.get(caller.subject) ?? null;
}

/**
 * Whose book a caller may read (docs/decisions.md, "Who reads a portfolio"). Fail closed: an admin reads any
 * manager's book and must name it; a VIP manager reads only their own (by their subject, `managerNameOf`;
 * `manager` may be left out or must equal it); anyone else (a support agent, a client with scopes but no role,
 * demo tokens) reads none.
 */
export function portfolioAccess(
  caller: PortfolioCaller,
  requested: string | undefined,
  managers: ReadonlyMap<string, string>,
): PortfolioAccess {
  if (caller.roles.includes("admin")) {
    if (requested !== undefined) return { allowed: true, manager: requested };
    return {
      allowed: false,
      status: 400,
      detail: "is required for an admin: name the manager whose book to read",
    };
  }
  if (caller.roles.includes("vip_manager")) {
    const own = managerNameOf(caller, managers);
    if (own === null) {
      return {
        allowed: false,
        status: 403,
        detail:
          "cannot be matched: the signed-in user is not mapped to a VIP manager (VIP_MANAGER_SUBJECTS), so no book is theirs",
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
