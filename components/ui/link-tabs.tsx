import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { formatCount } from "@/lib/client/format";

export interface LinkTab {
  href: string;
  label: React.ReactNode;
  /** Shown after the label ("Delivered 12"); omit when unknown. */
  count?: number;
  current?: boolean;
}

/**
 * Tabs that are places: each one is a link (its own URL, back/forward and shared links work), the current one marked
 * aria-current="page". Not ARIA tabs, which are for panels on one page (Tabs).
 */
export function LinkTabs({ label, items, className }: { label: string; items: LinkTab[]; className?: string }) {
  return (
    <nav aria-label={label} className={cn("overflow-x-auto border-b", className)}>
      <ul className="flex min-w-max gap-1">
        {items.map((item) => (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={item.current ? "page" : undefined}
              className="-mb-px inline-flex h-10 items-center gap-1.5 border-b-2 border-transparent px-3 text-sm font-medium whitespace-nowrap text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring aria-[current=page]:border-primary aria-[current=page]:text-foreground"
            >
              {item.label}
              {item.count !== undefined && (
                <span className="rounded-full bg-muted px-1.5 text-xs text-muted-foreground tabular-nums">
                  {formatCount(item.count)}
                </span>
              )}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
