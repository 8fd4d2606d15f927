import "server-only";
import { isPastDate, originTimeZone } from "@/lib/carriers/ship-date";
import type { Address, ShipDate } from "@/lib/carriers/types";
import { ValidationError } from "@/lib/errors";

const FIELD = "options.shipping_date";
// purplship's option is a date or a local date-time; only the day matters to a carrier's pickup.
const SHAPE = /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2})?)?$/;

/**
 * The ship date a rate or label request carries: the client's `options.shipping_date` (validated: a real day, not
 * before today on the origin's calendar) or none (the first day the parcel can leave), in the origin's zone.
 * `pastIsToday`: a stored shipment's date that has passed since it was rated is not the client's mistake now; the
 * adapter ships it on the first day it can.
 */
export function requestedShipDate(
  shipper: Pick<Address, "country_code" | "state_code" | "postal_code">,
  options: Record<string, unknown>,
  now: Date,
  { pastIsToday = false } = {},
): ShipDate {
  const timeZone = originTimeZone(shipper);
  const given = options.shipping_date;
  if (given === undefined || given === null) return { date: null, time_zone: timeZone };
  const day = typeof given === "string" ? SHAPE.exec(given)?.[1] : undefined;
  const parsed = day ? new Date(`${day}T00:00:00Z`) : null;
  if (!parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day) {
    throw new ValidationError("must be a date, YYYY-MM-DD", FIELD);
  }
  if (isPastDate(day!, now, timeZone)) {
    if (pastIsToday) return { date: null, time_zone: timeZone };
    throw new ValidationError(`must not be before today in the origin's time zone (${timeZone})`, FIELD);
  }
  return { date: day!, time_zone: timeZone };
}
