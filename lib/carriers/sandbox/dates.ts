/** Calendar helpers. Business days skip Saturdays and Sundays (no holiday calendar: it is a sandbox). */

/** `YYYY-MM-DD` of the instant in UTC. */
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The date `days` business days after `from` (UTC calendar). Starting on a weekend counts from Monday. */
export function addBusinessDays(from: Date, days: number): Date {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const wd = d.getUTCDay();
    if (wd !== 0 && wd !== 6) left--;
  }
  return d;
}
