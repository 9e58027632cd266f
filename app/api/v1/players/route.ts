import { playersRead } from "@/features/players/reads/players";
import { readRoute } from "@/platform/http/api-handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(playersRead);
