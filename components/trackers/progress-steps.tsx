import { Check } from "lucide-react";
import { TRACKER_STATUS_DISPLAY } from "@/components/trackers/tracker-status-badge";
import { cn } from "@/components/ui/cn";
import type { TrackerStatus } from "@/lib/carriers/types";
import { PROGRESS_STEPS, trackerProgress } from "@/lib/dashboard/tracker-status";

/**
 * Label created → picked up → in transit → out for delivery → delivered, the steps reached filled in. A parcel off
 * the usual journey (held, delayed, failed, returning) says so after the step it had reached, in its own words.
 */
export function ProgressSteps({ status, eventStatuses }: { status: TrackerStatus; eventStatuses: TrackerStatus[] }) {
  const { reached, detour } = trackerProgress(status, eventStatuses);
  return (
    <div className="grid gap-2">
      <ol className="grid grid-cols-5 gap-1" aria-label="Progress">
        {PROGRESS_STEPS.map((step, i) => {
          const done = i <= reached;
          return (
            <li key={step} className="grid gap-1.5" aria-current={i === reached ? "step" : undefined}>
              <span className={cn("h-2 rounded-full", done ? "bg-primary" : "bg-muted")} aria-hidden />
              <span className={cn("flex items-start gap-1 text-xs", done ? "font-medium" : "text-muted-foreground")}>
                {done && <Check aria-hidden className="mt-px size-3.5 shrink-0" />}
                {step}
                <span className="sr-only">{done ? " (done)" : " (not yet)"}</span>
              </span>
            </li>
          );
        })}
      </ol>
      {detour && (
        <p className="text-sm font-medium text-warning">
          {TRACKER_STATUS_DISPLAY[detour].label} after “{PROGRESS_STEPS[reached]}”
        </p>
      )}
    </div>
  );
}
