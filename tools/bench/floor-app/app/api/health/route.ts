export const dynamic = "force-dynamic";

/** Readiness for the benchmark: answers without touching the database. */
export function GET(): Response {
  return Response.json({ status: "ok" });
}
