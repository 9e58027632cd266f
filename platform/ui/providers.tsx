"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { type ReactNode, useState } from "react";
import { makeQueryClient } from "@/platform/client/query-client";

export function Providers({ children }: { children: ReactNode }) {
  // One cache per signed-in browser session: the (app) layout mounts on sign-in and goes away on sign-out, so
  // one user's cached reads never show on the next user's pages. The server makes its own per request.
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {/*
        Not shallow: each URL change also goes through Next's router, so every history entry records the
        search it shows. A shallow entry records its predecessor's, and after a reload Next refetches such an
        entry on back/forward; a second step taken during that refetch was lost (URL and filters disagreed).
      */}
      <NuqsAdapter defaultOptions={{ shallow: false }}>{children}</NuqsAdapter>
    </QueryClientProvider>
  );
}
