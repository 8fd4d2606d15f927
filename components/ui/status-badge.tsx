import type { LucideIcon } from "lucide-react";
import { Badge, type BadgeTone } from "@/components/ui/badge";

/** How a status reads: words, a tone and an icon (never colour alone). */
export interface StatusDisplay {
  label: string;
  tone: BadgeTone;
  icon: LucideIcon;
}

/** A status as icon and words, from its kind's table (shipments', trackers'). */
export function StatusBadge({
  status,
  display,
  className,
}: {
  status: string;
  display: StatusDisplay;
  className?: string;
}) {
  const { label, tone, icon: Icon } = display;
  return (
    <Badge tone={tone} className={className} data-status={status}>
      <Icon aria-hidden />
      {label}
    </Badge>
  );
}
