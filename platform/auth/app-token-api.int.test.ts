import { describe, expect, it } from "vitest";
import { GET as getActivity } from "@/app/api/v1/players/[playerId]/monthly-activity/route";
import { GET as getProfile } from "@/app/api/v1/players/[playerId]/route";
import { appIssuedTokensForFile } from "@/test/support/in-process-app";
import { issueAccessToken } from "./access-token.ts";
import { createSession } from "./session-store.ts";

/*
 * The browser's path end to end, short of HTTP: a token issued by the app for a signed-in user is
 * accepted by the API's route handlers in AUTH_MODE=jwt, exactly as an external caller's would be.
 */
appIssuedTokensForFile();

const request = (path: string, headers: Record<string, string>) =>
  new Request(`http://localhost/api/v1${path}`, { headers });
const params = (playerId: string) => ({ params: Promise.resolve({ playerId }) });

describe("the API in AUTH_MODE=jwt", () => {
  it("serves the signed-in user's requests made with the app-issued token", async () => {
    const session = await createSession({
      subject: "demo-vip-manager",
      role: "vip_manager",
      provider: "credentials",
    });
    const { token } = await issueAccessToken({ sessionId: session.id });
    const headers = { Authorization: `Bearer ${token}`, "X-Session-ID": session.id };
    const profile = await getProfile(request("/players/P000007", headers), params("P000007"));
    expect(profile.status).toBe(200);
    expect((await profile.json()).id).toBe("P000007");
    const activity = await getActivity(
      request("/players/P000007/monthly-activity", headers),
      params("P000007"),
    );
    expect(activity.status).toBe(200);
    expect((await activity.json()).months).toHaveLength(12);
  });

  it("refuses a token that is not signed with the API's secret", async () => {
    const headers = { Authorization: "Bearer not-a-jwt", "X-Session-ID": "s-1" };
    const response = await getProfile(request("/players/P000007", headers), params("P000007"));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("invalid_token");
  });
});
