import { readRoute } from "@/lib/http/api-handler";
import { portfolioRead } from "@/lib/reads/portfolio";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(portfolioRead);
