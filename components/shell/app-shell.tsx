import Link from "next/link";
import { Ship } from "lucide-react";
import { MobileNav } from "@/components/shell/mobile-nav";
import { NavLinks } from "@/components/shell/nav-links";
import { SessionEndedDialog } from "@/components/shell/session-ended-dialog";
import { UserMenu, type UserMenuProps } from "@/components/shell/user-menu";

export interface AppShellProps extends UserMenuProps {
  org: { name: string };
  children: React.ReactNode;
}

/**
 * A sticky sidebar from md up; below, a top bar (menu button, brand, organization, user menu) whose menu opens the
 * same links in a sheet. Only one of the two navigations is shown at a time, so there is a single "Main" landmark.
 */
export function AppShell({ org, user, role, theme, children }: AppShellProps) {
  return (
    <div className="min-h-screen md:flex">
      <a
        href="#main"
        className="sr-only rounded-md bg-primary px-3 py-2 text-sm font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to content
      </a>
      <header className="flex items-center gap-2 border-b bg-card px-3 py-2 md:sticky md:top-0 md:h-screen md:w-60 md:shrink-0 md:flex-col md:flex-nowrap md:items-stretch md:border-r md:border-b-0 md:py-4">
        <MobileNav orgName={org.name} />
        <Link
          href="/shipments"
          className="flex items-center gap-2 rounded-md px-2 py-1 focus-visible:outline-2 focus-visible:outline-ring"
        >
          <Ship aria-hidden className="size-5 shrink-0 text-primary" />
          <span className="font-semibold">Shipwell</span>
        </Link>
        <p className="min-w-0 flex-1 truncate px-2 text-sm text-muted-foreground md:flex-none md:pb-3" title={org.name}>
          {org.name}
        </p>
        <div className="md:order-last md:mt-auto md:border-t md:pt-3">
          <UserMenu user={user} role={role} theme={theme} />
        </div>
        <NavLinks className="hidden md:block" />
      </header>
      <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none md:px-8">
        {children}
      </main>
      <SessionEndedDialog />
    </div>
  );
}
