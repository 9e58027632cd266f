import { portfolioRead } from "@/features/portfolio/reads/portfolio";
import { readRoute } from "@/platform/http/api-handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(portfolioRead);
