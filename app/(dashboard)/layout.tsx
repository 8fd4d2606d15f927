import { cookies } from "next/headers";
import { connection } from "next/server";
import { AppShell } from "@/components/shell/app-shell";
import { THEME_COOKIE } from "@/lib/client/theme";
import { requireSession } from "@/lib/dashboard/session";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  // Every dashboard page is per request: never prerendered at build time, when there is no database to ask.
  await connection();
  const { org, user, role } = await requireSession();
  const theme = (await cookies()).get(THEME_COOKIE)?.value;
  return (
    <AppShell org={org} user={user} role={role} theme={theme}>
      {children}
    </AppShell>
  );
}
