import { readRoute } from "@/lib/http/api-handler";
import { playerEventsStream } from "@/lib/reads/player-events";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(playerEventsStream);
