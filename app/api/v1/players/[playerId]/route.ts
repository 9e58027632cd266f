import { readRoute } from "@/lib/http/api-handler";
import { playerProfileRead } from "@/lib/reads/player-profile";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(playerProfileRead);
