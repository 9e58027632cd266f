import { playerProfileRead } from "@/features/players/reads/player-profile";
import { readRoute } from "@/platform/http/api-handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(playerProfileRead);
