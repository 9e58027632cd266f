import { readRoute } from "@/lib/http/api-handler";
import { playersRead } from "@/lib/reads/players";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(playersRead);
