/**
 * The dashboard's one way to write money, counts and dates for people. One locale for every page, so the text the
 * server renders is the text the browser hydrates (a browser locale on the client alone would mismatch).
 */
const LOCALE = "en-US";

/** An amount in its currency ("$12.40"); a currency code Intl does not know still shows its amount. */
export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(LOCALE, { style: "currency", currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** A count with thousands separators ("12,480"). */
export function formatCount(n: number): string {
  return n.toLocaleString(LOCALE);
}

const DAY_STYLES = {
  /** "Jun 5" */
  short: { month: "short", day: "numeric" },
  /** "Thu, Jun 5" */
  weekday: { weekday: "short", month: "short", day: "numeric" },
  /** "Thu, Jun 5, 2025" */
  full: { weekday: "short", month: "short", day: "numeric", year: "numeric" },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

/**
 * A calendar day (`YYYY-MM-DD`: a carrier's delivery date, a day of the overview) as that day itself, never shifted
 * by anyone's time zone: read and written in UTC. Null for text that is not such a day.
 */
export function formatCalendarDay(day: string, style: keyof typeof DAY_STYLES = "weekday"): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (Number.isNaN(date.getTime()) || date.getUTCDate() !== Number(match[3])) return null;
  return new Intl.DateTimeFormat(LOCALE, { ...DAY_STYLES[style], timeZone: "UTC" }).format(date);
}

/** A carrier's date as words ("Mon, Mar 4, 2024"), or the carrier's own text when it is not a date. */
export function dayText(day: string): string {
  return formatCalendarDay(day, "full") ?? day;
}

export type InstantShow = "datetime" | "date" | "time";

/** Reads the API's `YYYY-MM-DD HH:MM:SS.ffffff+00:00` as well as ISO 8601 and Date objects. */
export function parseInstant(value: string | Date): Date {
  return value instanceof Date ? value : new Date(value.replace(" ", "T"));
}

/**
 * An instant in a time zone (undefined: the viewer's, in the browser), named when the time is shown:
 * "Nov 27, 2026, 6:54 PM UTC". Pages show instants through components/ui/local-time.tsx, which picks the zone.
 */
export function formatInstant(value: string | Date, timeZone: string | undefined, show: InstantShow): string {
  const day = show === "time" ? {} : ({ year: "numeric", month: "short", day: "numeric" } as const);
  const time = show === "date" ? {} : ({ hour: "numeric", minute: "2-digit" } as const);
  return new Intl.DateTimeFormat(LOCALE, {
    timeZone,
    ...day,
    ...time,
    timeZoneName: timeZone && show !== "date" ? "short" : undefined,
  }).format(parseInstant(value));
}

/**
 * The name a recipient goes by: the person's, else the company's; an API shipment may have neither, and then
 * `unnamed` (a list's "No name", a heading's own words).
 */
export const recipientName = (
  r: { person_name?: string | null; company_name?: string | null },
  unnamed = "No name",
): string => r.person_name || r.company_name || unnamed;
