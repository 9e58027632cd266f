import { readRoute } from "@/lib/http/api-handler";
import { changesRead } from "@/lib/reads/changes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(changesRead);
