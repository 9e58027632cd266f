import { NextResponse } from "next/server";
import { undecodablePathResponse } from "@/lib/http/undecodable-path";

/** Runs before Next matches routes: the only place where an undecodable /api path can still get a problem body. */
export function proxy(request: Request): Response {
  return undecodablePathResponse(request) ?? NextResponse.next();
}

export const config = { matcher: "/api/:path*" };
