"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";
import { NAV_ITEMS, activeNavHref } from "@/components/shell/nav";

/** The main navigation: a row that scrolls on small screens, a column in the sidebar from md up. */
export function NavLinks({ className }: { className?: string }) {
  const active = activeNavHref(usePathname());
  return (
    <nav aria-label="Main" className={cn("overflow-x-auto", className)}>
      <ul className="flex min-w-max gap-1 md:min-w-0 md:flex-col">
        {NAV_ITEMS.map(({ href, label, icon: Icon }) => (
          <li key={href}>
            <Link
              href={href}
              aria-current={href === active ? "page" : undefined}
              className="flex h-9 items-center gap-2.5 rounded-md px-3 text-sm font-medium whitespace-nowrap text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring aria-[current=page]:bg-accent aria-[current=page]:text-foreground"
            >
              <Icon aria-hidden className="size-4 shrink-0" />
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
