import {
  Layers,
  LayoutDashboard,
  Package,
  PackagePlus,
  Radar,
  ScanBarcode,
  Settings,
  type LucideIcon,
} from "lucide-react";

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
}

/** The dashboard's places, in order: the sidebar (and, later, the command palette) are built from this list. */
export const NAV_ITEMS: readonly NavItem[] = [
  { href: "/", label: "Overview", icon: LayoutDashboard },
  { href: "/shipments", label: "Shipments", icon: Package },
  { href: "/shipments/new", label: "Create label", icon: PackagePlus },
  { href: "/batches", label: "Batches", icon: Layers },
  { href: "/scan", label: "Scan to print", icon: ScanBarcode },
  { href: "/trackers", label: "Trackers", icon: Radar },
  { href: "/settings", label: "Settings", icon: Settings },
];

/**
 * The item a path belongs to: the longest href that is the path or a parent of it, so /shipments/new is "Create
 * label" while /shipments/shp_… stays under "Shipments".
 */
export function activeNavHref(pathname: string): string | undefined {
  let best: string | undefined;
  for (const { href } of NAV_ITEMS) {
    const inside = pathname === href || pathname.startsWith(`${href}/`);
    if (inside && (!best || href.length > best.length)) best = href;
  }
  return best;
}
