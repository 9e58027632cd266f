import { readRoute } from "@/lib/http/api-handler";
import { webhookEventsRead } from "@/lib/reads/webhook-events";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(webhookEventsRead);
