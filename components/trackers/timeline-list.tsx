import { MapPin } from "lucide-react";
import { timelineDays } from "@/lib/dashboard/timeline";

export interface TimelineEvent {
  date: string;
  time: string | null;
  description: string;
  location: string;
}

/**
 * Tracking events, newest first, under the day each happened: dates and times are the carrier's,
 * local to the scan, and never converted to the viewer's zone. Server-rendered: it works without scripts.
 */
export function TimelineList({ events, empty }: { events: TimelineEvent[]; empty: string }) {
  const days = timelineDays(events);
  if (days.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <ol className="grid gap-4" aria-label="Tracking events, newest first" data-testid="timeline">
      {days.map((day, d) => (
        <li key={`${day.date}-${d}`} className="grid gap-2">
          <h3 className="text-sm font-semibold">
            <time dateTime={day.date}>{day.label}</time>
          </h3>
          <ol className="grid gap-3 border-l pl-4">
            {day.events.map((e, i) => (
              <li key={i} className="grid gap-0.5 text-sm" data-testid="timeline-event">
                <p>
                  <span className="font-medium tabular-nums">{e.time ?? "—"}</span>{" "}
                  <span className="text-xs text-muted-foreground">local time</span>
                </p>
                <p>{e.description}</p>
                {e.location && (
                  <p className="flex items-center gap-1 text-muted-foreground">
                    <MapPin aria-hidden className="size-3.5 shrink-0" />
                    {e.location}
                  </p>
                )}
              </li>
            ))}
          </ol>
        </li>
      ))}
    </ol>
  );
}
