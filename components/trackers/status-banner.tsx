import { TRACKER_STATUS_DISPLAY } from "@/components/trackers/tracker-status-badge";
import { cn } from "@/components/ui/cn";
import type { TrackerStatus } from "@/lib/carriers/types";
import { dayText } from "@/lib/client/format";

const TONE = {
  neutral: "border-neutral-border bg-neutral-muted text-neutral",
  info: "border-info-border bg-info-muted text-info",
  success: "border-success-border bg-success-muted text-success",
  warning: "border-warning-border bg-warning-muted text-warning",
  danger: "border-destructive-border bg-destructive-muted text-destructive",
} as const;

export interface StatusBannerProps {
  status: TrackerStatus;
  estimatedDelivery: string | null;
  /** The latest event's carrier wording and its date, shown under the status. */
  latest: { description: string; date: string } | null;
  children?: React.ReactNode;
}

/** The parcel's state at a glance: icon and words, then the expected or delivered day (carrier's calendar days). */
export function StatusBanner({ status, estimatedDelivery, latest, children }: StatusBannerProps) {
  const { label, tone, icon: Icon } = TRACKER_STATUS_DISPLAY[status];
  const when =
    status === "delivered" && latest
      ? `Delivered ${dayText(latest.date)}`
      : estimatedDelivery && status !== "cancelled"
        ? `Expected ${dayText(estimatedDelivery.slice(0, 10))}`
        : null;
  return (
    <section aria-label="Status" className={cn("grid gap-1 rounded-lg border p-4", TONE[tone])}>
      <p className="flex items-center gap-2 text-xl font-semibold" data-testid="tracker-status">
        <Icon aria-hidden className="size-6 shrink-0" />
        {label}
      </p>
      {when && <p className="font-medium">{when}</p>}
      {latest && status !== "delivered" && <p className="text-sm">{latest.description}</p>}
      {children}
    </section>
  );
}
