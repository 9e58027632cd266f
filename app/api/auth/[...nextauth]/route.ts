import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/auth-options";

export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// Built per request from the cached options so that the build never reads the environment.
async function handler(request: Request, context: RouteContext): Promise<Response> {
  return NextAuth(getAuthOptions())(request, context);
}

export { handler as GET, handler as POST };
