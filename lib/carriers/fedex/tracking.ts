import { CarrierError, type AdapterMessage, type TrackingEvent, type TrackingResult } from "@/lib/carriers/types";
import { alertMessages, FEDEX, fedexProblems } from "@/lib/carriers/fedex/errors";
import { fedexStatus } from "@/lib/carriers/fedex/status";
import { datePart, isRecord, records, str } from "@/lib/carriers/fedex/wire";

/**
 * Tracking (`POST /track/v1/trackingnumbers`): up to 30 numbers per call with every scan. A number FedEx does not
 * know comes back inside the 200 answer as that number's `error` (TRACKING.TRACKINGNUMBER.NOTFOUND); it becomes
 * that number's tracking_not_found while the others are answered.
 */

/** FedEx's limit of numbers per tracking call. */
export const TRACK_BATCH_SIZE = 30;

/** What FedEx is sent: digits and letters only (people paste numbers with spaces, as printed on labels). */
const normalizeNumber = (n: string) => n.replace(/[\s-]/g, "").toUpperCase();

export function buildTrackRequest(numbers: readonly string[]) {
  return {
    includeDetailedScans: true,
    trackingInfo: numbers.map((n) => ({ trackingNumberInfo: { trackingNumber: normalizeNumber(n) } })),
  };
}

const STAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

function eventOf(e: Record<string, unknown>): TrackingEvent | null {
  const when = str(e.date);
  const m = when ? STAMP.exec(when) : null;
  if (!when || !m) return null;
  // FedEx gives the local time with its offset; one without an offset is read as UTC rather than dropped.
  const instant = Date.parse(m[5] ? when : `${when}Z`);
  if (!Number.isFinite(instant)) return null;
  const code = str(e.eventType) ?? str(e.derivedStatusCode) ?? "";
  const description = str(e.eventDescription) ?? str(e.derivedStatus) ?? code;
  const exception = str(e.exceptionDescription);
  const place = isRecord(e.scanLocation) ? e.scanLocation : {};
  const location = [place.city, place.stateOrProvinceCode, place.postalCode, place.countryCode]
    .map(str)
    .filter((p): p is string => p !== null)
    .join(", ");
  return {
    date: m[1]!,
    time: `${m[2]}:${m[3]}`,
    description: exception && exception !== description ? `${description}: ${exception}` : description,
    location,
    code,
    status: fedexStatus(code),
    occurred_at: new Date(instant).toISOString(),
  };
}

const eventsOf = (r: Record<string, unknown>) =>
  records(r.scanEvents)
    .map(eventOf)
    .filter((e): e is TrackingEvent => e !== null)
    .sort((a, b) => (a.occurred_at < b.occurred_at ? 1 : a.occurred_at > b.occurred_at ? -1 : 0));

function estimatedDelivery(r: Record<string, unknown>): string | null {
  const stamped = records(r.dateAndTimes).find((d) => str(d.type) === "ESTIMATED_DELIVERY");
  const windowEnd = (w: unknown) => {
    const range = isRecord(w) && isRecord(w.window) ? w.window : {};
    return datePart(range.ends) ?? datePart(range.begins);
  };
  return (
    datePart(stamped?.dateTime) ?? windowEnd(r.estimatedDeliveryTimeWindow) ?? windowEnd(r.standardTransitTimeWindow)
  );
}

function resultOf(trackingNumber: string, r: Record<string, unknown>): TrackingResult {
  const events = eventsOf(r);
  const latest = isRecord(r.latestStatusDetail) ? r.latestStatusDetail : {};
  // The status code itself first: the derived code folds a label-created shipment (OC) into "IN" (initiated).
  const latestCode = str(latest.code) ?? str(latest.derivedCode);
  const info = isRecord(r.trackingNumberInfo) ? r.trackingNumberInfo : {};
  const service = isRecord(r.serviceDetail) ? r.serviceDetail : {};
  const delivery = isRecord(r.deliveryDetails) ? r.deliveryDetails : {};
  const deliveredAt = records(r.dateAndTimes).find((d) => str(d.type) === "ACTUAL_DELIVERY");
  const meta: Record<string, unknown> = {
    carrier_code: str(info.carrierCode),
    service: str(service.description),
    status_description: str(latest.statusByLocale) ?? str(latest.description),
    signed_by: str(delivery.signedByName) ?? str(delivery.receivedByName),
    delivered_at: str(deliveredAt?.dateTime),
  };
  return {
    tracking_number: trackingNumber,
    status: latestCode ? fedexStatus(latestCode) : (events[0]?.status ?? "unknown"),
    events,
    estimated_delivery: estimatedDelivery(r),
    meta: Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== null)),
  };
}

function notFound(trackingNumber: string, problem?: { code: string; message: string }): CarrierError {
  return new CarrierError(
    "tracking_not_found",
    problem?.message ?? `${FEDEX} has no record of tracking number ${trackingNumber}.`,
    { tracking_number: trackingNumber, ...(problem ? { carrier_code: problem.code } : {}) },
  );
}

/** The newest of a number's results: FedEx answers every shipment that ever carried a recycled number. */
function newest(results: Record<string, unknown>[]): Record<string, unknown> | undefined {
  const latest = (r: Record<string, unknown>) => eventsOf(r)[0]?.occurred_at ?? "";
  return [...results].sort((a, b) => (latest(a) < latest(b) ? 1 : latest(a) > latest(b) ? -1 : 0))[0];
}

/** Every asked number's result or refusal, keyed by the number as it was asked. */
export function parseTrackOutput(
  output: Record<string, unknown>,
  asked: readonly string[],
): { results: Record<string, TrackingResult | CarrierError>; messages: AdapterMessage[] } {
  const byNumber = new Map<string, Record<string, unknown>[]>();
  for (const complete of records(output.completeTrackResults)) {
    const n = str(complete.trackingNumber);
    if (n)
      byNumber.set(normalizeNumber(n), [
        ...(byNumber.get(normalizeNumber(n)) ?? []),
        ...records(complete.trackResults),
      ]);
  }
  const results: Record<string, TrackingResult | CarrierError> = {};
  for (const number of asked) {
    const found = byNumber.get(normalizeNumber(number)) ?? [];
    // A result that carries scans is an answer even beside an error (FedEx's own samples have both).
    const good = newest(
      found.filter((r) => !r.error || records(r.scanEvents).length > 0 || isRecord(r.latestStatusDetail)),
    );
    if (good) results[number] = resultOf(number, good);
    else results[number] = notFound(number, found.map((r) => fedexProblems(r)[0]).find(Boolean));
  }
  // TRACKING.DATA.NOTFOUND only repeats that some numbers were not found: each of them says so as tracking_not_found.
  const alerts = records(output.alerts).filter((a) => a.code !== "TRACKING.DATA.NOTFOUND");
  return { results, messages: alertMessages(alerts) };
}
