/**
 * A tracking timeline as clerks read it: newest first, in the carrier's order (events are already
 * newest first; scans from different time zones are never re-sorted), grouped under the date the carrier gave each
 * event. Dates are the scan's own local dates, so they are formatted as calendar days, never shifted to a zone.
 */
import { dayText } from "@/lib/client/format";

export interface TimelineDay<E> {
  /** The carrier's date, YYYY-MM-DD. */
  date: string;
  /** "Mon, Mar 4, 2024"; the carrier's text when it is not a date. */
  label: string;
  events: E[];
}

/** Consecutive events of the same date form a day; a date met again later (zones interleaving) starts another. */
export function timelineDays<E extends { date: string }>(events: E[]): TimelineDay<E>[] {
  const days: TimelineDay<E>[] = [];
  for (const event of events) {
    const last = days.at(-1);
    if (last && last.date === event.date) last.events.push(event);
    else days.push({ date: event.date, label: dayText(event.date), events: [event] });
  }
  return days;
}
