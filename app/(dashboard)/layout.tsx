import { connection } from "next/server";
import { AppShell } from "@/components/shell/app-shell";
import { requireSession } from "@/lib/dashboard/session";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  // Every dashboard page is per request: never prerendered at build time, when there is no database to ask.
  await connection();
  const { org, user, role } = await requireSession();
  return (
    <AppShell org={org} user={user} role={role}>
      {children}
    </AppShell>
  );
}
