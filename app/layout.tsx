import type { Metadata } from "next";
import type { ReactNode } from "react";
import { HydrationMarker } from "@/platform/ui/hydration-marker";
import "./globals.css";

export const metadata: Metadata = {
  title: "Player Account Read Service",
  description: "Back office: player profiles and transaction history",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        {children}
        <HydrationMarker />
      </body>
    </html>
  );
}
