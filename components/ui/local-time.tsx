"use client";

import { useSyncExternalStore } from "react";

const never = () => () => {};

/** Reads the API's `YYYY-MM-DD HH:MM:SS.ffffff+00:00` (and ISO 8601). */
function parse(timestamp: string): Date {
  return new Date(timestamp.replace(" ", "T"));
}

type Show = "datetime" | "date" | "time";

function format(date: Date, timeZone: string | undefined, show: Show): string {
  const day = show === "time" ? {} : ({ year: "numeric", month: "short", day: "numeric" } as const);
  const time = show === "date" ? {} : ({ hour: "numeric", minute: "2-digit" } as const);
  return new Intl.DateTimeFormat(undefined, {
    timeZone,
    ...day,
    ...time,
    timeZoneName: timeZone && show !== "date" ? "short" : undefined,
  }).format(date);
}

/**
 * An instant in the viewer's own time zone. The server cannot know that zone, so it renders UTC (marked as such),
 * and the browser replaces it right after hydration without a mismatch.
 */
export function LocalTime({ timestamp, show = "datetime" }: { timestamp: string; show?: Show }) {
  const date = parse(timestamp);
  const text = useSyncExternalStore(
    never,
    () => format(date, undefined, show),
    () => format(date, "UTC", show),
  );
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()}>
      {text}
    </time>
  );
}
