import type { Metadata } from "next";
import { cookies } from "next/headers";
import { connection } from "next/server";
import { Providers } from "@/app/providers";
import { THEME_COOKIE, parseTheme, themeClass } from "@/lib/client/theme";
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
  // The chosen theme as a class, so the first paint has its colours (app/globals.css); none follows the system.
  const theme = themeClass(parseTheme((await cookies()).get(THEME_COOKIE)?.value));
  return (
    <html lang="en" className={theme}>
      <body className="min-h-screen bg-background text-foreground antialiased">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
