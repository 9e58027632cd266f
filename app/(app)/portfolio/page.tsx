import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { PortfolioPage } from "@/features/portfolio/ui/portfolio-view";
import { getCurrentSession } from "@/platform/auth/session";
import { vipManagerSubjects } from "@/platform/auth/vip-managers";
import { firstViewUser } from "../first-view-user.ts";
import { ForbiddenNotice } from "../forbidden-notice.tsx";
import { prefetchPortfolio } from "./first-view.ts";

export const metadata: Metadata = { title: "My players · Player Accounts" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * A VIP manager's own book (the manager their sign-in's subject maps to, as the API matches it) or, for an admin, the book named in the URL.
 * Support agents have no book; the API refuses them the same way (docs/decisions.md).
 */
export default async function PortfolioRoute({ searchParams }: { searchParams: SearchParams }) {
  const session = await getCurrentSession();
  const role = session?.user.role ?? null;
  if (!session || (role !== "vip_manager" && role !== "admin")) return <Forbidden />;
  const ownManager = role === "vip_manager" ? (vipManagerSubjects().get(session.user.id) ?? "") : null;
  if (ownManager === "") return <NotMapped />;
  const requested = (await searchParams).manager;
  const manager = ownManager ?? (typeof requested === "string" ? requested : "");
  const user = manager ? await firstViewUser(session) : null;
  const firstView = user ? await prefetchPortfolio(manager, user) : undefined;
  // No Suspense boundary: the page is dynamic, so nothing in it suspends, and the first view is then part of the
  // HTML's first flush instead of streamed behind a boundary that only a script reveals (as on the profile page;
  // behind one, the largest paint waited for the scripts: docs/performance.md).
  return (
    <HydrationBoundary state={firstView}>
      <PortfolioPage ownManager={ownManager} />
    </HydrationBoundary>
  );
}

function Forbidden() {
  return (
    <ForbiddenNotice title="403 · Portfolios are for VIP managers and admins">
      A portfolio lists a VIP manager's players with their money figures and flags. Your role can look players
      up and read each one's data from the lookup.
    </ForbiddenNotice>
  );
}

function NotMapped() {
  return (
    <ForbiddenNotice title="Your sign-in is not matched to a VIP manager">
      Books are matched to the person signed in, not to the display name, which can be edited. Yours is not
      matched to a manager yet: ask whoever runs this service to add your account to its list of VIP managers.
    </ForbiddenNotice>
  );
}
