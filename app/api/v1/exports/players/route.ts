import { readRoute } from "@/lib/http/api-handler";
import { profilesExport } from "@/lib/reads/profiles-export";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(profilesExport);
