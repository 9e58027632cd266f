/*
 * The problem errors live in lib/problems (below both lib/auth and lib/http, so that auth's refusals need no HTTP
 * import). This path stays while lib/reads, changed by other work at the same time, still imports it.
 */
export * from "@/lib/problems/problem";
