import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import {
  portfolioManagersQuerySchema,
  portfolioManagersResponseSchema,
  portfolioQuerySchema,
  portfolioResponseSchema,
} from "@/features/portfolio/schema/portfolio";
import { SCOPES } from "@/platform/auth/scopes";
import { ok, problem, readHeaders, readResponses, requires } from "@/platform/openapi/operation-parts";

/* A VIP manager's portfolio and the list of managers. The keys' order is their order in the document. */

const getPortfolio = {
  operationId: "getPortfolio",
  tags: ["Players"],
  summary: "Get a VIP manager's portfolio",
  description:
    "An addition to the spec for the back office's **My players** page: every player whose `vip_manager` is the manager, with the last 30 UTC days' completed deposits, withdrawals, net deposits and GGR against the 30 days before, days since the last deposit and the last transaction, pending withdrawals (count, amount, oldest) and the flags `churn_risk`, `big_withdrawal`, `pending_withdrawal_24h` and `deposit_spike` (see PortfolioFlag; thresholds in `flag_rules`). Who may read whose book: an admin any manager's (and must name one); a VIP manager only their own, matched by the verified token's subject (`sub`, mapped to a manager by `VIP_MANAGER_SUBJECTS`; never by the editable `name` claim); nobody else (403). Recorded in the audit trail as `portfolio` with the ids of the players returned.",
  security: requires(SCOPES.playersRead),
  requestParams: { query: portfolioQuerySchema, header: readHeaders },
  responses: {
    ...readResponses(
      ok("The manager's players, ordered by id (byte order).", portfolioResponseSchema),
      "Invalid `manager`, `manager` left out by an admin, or an unknown parameter.",
    ),
    "403": problem(
      "The token lacks `players:read`, or the caller may not read this book: a VIP manager naming another manager (or whose token's subject is mapped to no manager), a support agent, a client without a role. `errors` names `manager`.",
      ["insufficient-scope", "forbidden"],
    ),
  },
} satisfies ZodOpenApiOperationObject;

const listPortfolioManagers = {
  operationId: "listPortfolioManagers",
  tags: ["Players"],
  summary: "List the VIP managers and the size of their books",
  description:
    "Admins only: every `vip_manager` value named on a profile, with its number of players, for choosing a book to read with `GET /portfolio?manager=…`. Names of staff, not player data: not recorded in the audit trail.",
  security: requires(SCOPES.playersRead),
  requestParams: { query: portfolioManagersQuerySchema, header: readHeaders },
  responses: {
    ...readResponses(ok("The managers, by name.", portfolioManagersResponseSchema), "An unknown parameter."),
    "403": problem("The token lacks `players:read`, or the caller is not an admin.", [
      "insufficient-scope",
      "forbidden",
    ]),
  },
} satisfies ZodOpenApiOperationObject;

export const portfolioPaths = {
  "/portfolio": { get: getPortfolio },
  "/portfolio/managers": { get: listPortfolioManagers },
} satisfies ZodOpenApiPathsObject;
