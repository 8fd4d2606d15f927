import type { Metadata } from "next";
import { connection } from "next/server";
import { Providers } from "@/app/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Shipwell", template: "%s · Shipwell" },
  description: "Self-hostable shipping and tracking: one API and dashboard in front of many carriers.",
  icons: { icon: "/favicon.svg" },
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request, none prerendered at build time: its scripts carry the nonce of the visit's
  // Content-Security-Policy (proxy.ts), which a page written at build time could not know, so its scripts would be
  // refused and it would never become interactive.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-background text-foreground antialiased">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
