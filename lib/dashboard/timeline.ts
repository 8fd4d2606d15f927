/**
 * A tracking timeline as clerks read it: newest first, in the carrier's order (events are already
 * newest first; scans from different time zones are never re-sorted), grouped under the date the carrier gave each
 * event. Dates are the scan's own local dates, so they are formatted as calendar days, never shifted to a zone.
 */

export interface TimelineDay<E> {
  /** The carrier's date, YYYY-MM-DD. */
  date: string;
  /** "Mon, Mar 4, 2024"; the carrier's text when it is not a date. */
  label: string;
  events: E[];
}

const DAY = new Intl.DateTimeFormat("en-US", {
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** A calendar date as words, read without any time zone (a date-only string is no instant). */
export function formatCalendarDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return date;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(at.getTime()) ? date : DAY.format(at);
}

/** Consecutive events of the same date form a day; a date met again later (zones interleaving) starts another. */
export function timelineDays<E extends { date: string }>(events: E[]): TimelineDay<E>[] {
  const days: TimelineDay<E>[] = [];
  for (const event of events) {
    const last = days.at(-1);
    if (last && last.date === event.date) last.events.push(event);
    else days.push({ date: event.date, label: formatCalendarDate(event.date), events: [event] });
  }
  return days;
}
