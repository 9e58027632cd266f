import { readRoute } from "@/lib/http/api-handler";
import { portfolioManagersRead } from "@/lib/reads/portfolio-managers";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(portfolioManagersRead);
