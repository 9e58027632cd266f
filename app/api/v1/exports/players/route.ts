import { profilesExport } from "@/features/exports/reads/profiles-export";
import { readRoute } from "@/platform/http/api-handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(profilesExport);
