"use client";

import { useBrowserValue } from "@/components/ui/use-browser-value";
import { formatInstant, parseInstant, type InstantShow } from "@/lib/client/format";

/**
 * An instant in the viewer's own time zone. The server cannot know that zone, so it renders UTC (marked as such),
 * and the browser replaces it right after hydration without a mismatch.
 */
export function LocalTime({ timestamp, show = "datetime" }: { timestamp: string | Date; show?: InstantShow }) {
  const date = parseInstant(timestamp);
  const text = useBrowserValue(
    () => formatInstant(date, undefined, show),
    () => formatInstant(date, "UTC", show),
  );
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()}>
      {text}
    </time>
  );
}
