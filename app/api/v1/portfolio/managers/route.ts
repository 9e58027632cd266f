import { portfolioManagersRead } from "@/features/portfolio/reads/portfolio-managers";
import { readRoute } from "@/platform/http/api-handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(portfolioManagersRead);
