import { webhookEventsRead } from "@/features/webhook-events/reads/webhook-events";
import { readRoute } from "@/platform/http/api-handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(webhookEventsRead);
