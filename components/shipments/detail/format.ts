/** How the detail page writes money, instants and sizes; plain functions, usable on the server and in the browser. */

export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount);
  } catch {
    // A carrier's currency code Intl does not know still reads as an amount and a code.
    return `${amount.toFixed(2)} ${currency}`;
  }
}

const INSTANT = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  hourCycle: "h23",
  timeZone: "UTC",
});

/**
 * An instant of ours (an API timestamp or a Date), in UTC and marked so: the page is rendered on the server, which
 * does not know the clerk's time zone, and a time without its zone would be read as local.
 */
export function formatInstant(value: string | Date): string {
  const at = typeof value === "string" ? new Date(value.replace(" ", "T")) : value;
  return Number.isNaN(at.getTime()) ? String(value) : `${INSTANT.format(at)} UTC`;
}

export function isoInstant(value: string | Date): string | undefined {
  const at = typeof value === "string" ? new Date(value.replace(" ", "T")) : value;
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** "2.5 kg", "10 × 8 × 4 in"; null when the parcel has no dimensions. */
export function formatDimensions(p: {
  length: number | null;
  width: number | null;
  height: number | null;
  dimension_unit: string | null;
}): string | null {
  if (p.length == null || p.width == null || p.height == null) return null;
  return `${p.length} × ${p.width} × ${p.height} ${(p.dimension_unit ?? "").toLowerCase()}`.trim();
}
