import { expect, test } from "@playwright/test";
import { expectProblem } from "./helpers.ts";

test("the password callback takes only POST: other methods are 405 problems, not next-auth's 500", async ({
  request,
}) => {
  for (const path of ["/api/auth/callback/credentials", "/api/auth/callback/credentials/x"]) {
    for (const method of ["GET", "HEAD"]) {
      const res = await request.fetch(path, { method, maxRedirects: 0 });
      expect(res.status(), `${method} ${path}`).toBe(405);
      expect(res.headers().allow).toBe("POST");
      if (method === "GET")
        expect((await expectProblem(res, 405)).type).toMatch(
          /^https?:\/\/[^/]+\/problems\/method-not-allowed$/,
        );
    }
  }
});
