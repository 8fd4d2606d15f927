"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { NAV_ITEMS, activeNavHref } from "@/components/shell/nav";

/** The main navigation as a column: the sidebar's from md up, the menu sheet's below (components/shell/mobile-nav). */
export function NavLinks({ className, onNavigate }: { className?: string; onNavigate?: () => void }) {
  const active = activeNavHref(usePathname());
  return (
    <nav aria-label="Main" className={className}>
      <ul className="flex flex-col gap-1">
        {NAV_ITEMS.map(({ href, label, icon: Icon }) => (
          <li key={href}>
            <Link
              href={href}
              aria-current={href === active ? "page" : undefined}
              onClick={onNavigate}
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
