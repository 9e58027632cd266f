/*
 * The problem errors live in platform/problems (below both platform/auth and platform/http, so that auth's refusals need no HTTP
 * import). This path stays while features/<name>/reads, changed by other work at the same time, still imports it.
 */

export * from "@/platform/problems/problem";
