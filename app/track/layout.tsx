import { connection } from "next/server";

/** The public tracking pages: no session, no navigation, nothing of the organization but the parcel. */
export default async function PublicTrackingLayout({ children }: { children: React.ReactNode }) {
  // Rendered per request (there is no database at build time); the answer may still be cached for a minute
  // (next.config.ts sets Cache-Control on /track/*).
  await connection();
  return (
    <div className="mx-auto grid min-h-screen max-w-2xl content-start gap-6 px-4 py-8">
      <header className="text-sm font-semibold tracking-tight text-muted-foreground">Shipment tracking</header>
      <main className="grid gap-6">{children}</main>
      <footer className="text-xs text-muted-foreground">
        Times are the carrier&apos;s, local to each scan. Powered by Shipwell.
      </footer>
    </div>
  );
}
