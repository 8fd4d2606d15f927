import {
  CarrierError,
  carrierCode,
  type AdapterMessage,
  type TrackingEvent,
  type TrackingResult,
} from "@/lib/carriers/types";
import { asArray, badResponse, upsErrors } from "@/lib/carriers/ups/errors";
import { upsTrackerStatus, type UpsStatus } from "@/lib/carriers/ups/status";
import { isoFromUpsDate } from "@/lib/carriers/ups/wire";
import { excerpt } from "@/lib/validation";

/**
 * Tracking (Tracking.yaml `/track/v1/details/{inquiryNumber}`; docs/ups.md, "Tracking"): one number per call. Not found
 * is a 200 whose shipment carries warning TW0001, or an error answer with TV1002 (invalid inquiry number); both are
 * `tracking_not_found`, as is UPS's 404.
 */

const NOT_FOUND_CODES = new Set(["TW0001", "TV1002"]);

/** UPS takes inquiry numbers of 7 to 34 letters and digits. */
export function inquiryNumber(trackingNumber: string): string | null {
  const n = trackingNumber.replace(/\s+/g, "").toUpperCase();
  return /^[A-Z0-9]{7,34}$/.test(n) ? n : null;
}

export function notFound(trackingNumber: string, message?: string, carrier_code?: string): CarrierError {
  return new CarrierError(
    "tracking_not_found",
    message ?? `UPS does not know tracking number ${excerpt(trackingNumber, 40)}.`,
    {
      tracking_number: excerpt(trackingNumber, 40),
      ...(carrier_code ? { carrier_code } : {}),
    },
  );
}

interface Activity {
  date?: unknown;
  time?: unknown;
  gmtDate?: unknown;
  gmtTime?: unknown;
  gmtOffset?: unknown;
  location?: { address?: Record<string, unknown> };
  status?: UpsStatus & { description?: unknown };
}

interface Package {
  trackingNumber?: unknown;
  currentStatus?: UpsStatus & { description?: unknown };
  activity?: unknown;
  deliveryDate?: unknown;
  deliveryInformation?: { receivedBy?: unknown; location?: unknown };
  service?: { description?: unknown };
}

const str = (v: unknown): string => (typeof v === "string" ? v.trim() : "");

/** `HHMMSS` (UPS drops the leading zero of gmtTime: "74700") → `HH:MM:SS`, or null. */
function clock(v: unknown): string | null {
  const t = str(v);
  if (!/^\d{1,6}$/.test(t)) return null;
  const padded = t.padStart(6, "0");
  return `${padded.slice(0, 2)}:${padded.slice(2, 4)}:${padded.slice(4, 6)}`;
}

/** The instant of an activity: from its GMT date and time, else its local time and offset, else its date. */
function instant(a: Activity): string | null {
  const gmtDate = isoFromUpsDate(a.gmtDate);
  const gmtTime = clock(a.gmtTime);
  if (gmtDate && gmtTime) return new Date(`${gmtDate}T${gmtTime}Z`).toISOString();
  const date = isoFromUpsDate(a.date);
  if (!date) return null;
  const time = clock(a.time) ?? "00:00:00";
  const offset = /^[+-]\d{2}:\d{2}$/.test(str(a.gmtOffset)) ? str(a.gmtOffset) : "Z";
  const at = new Date(`${date}T${time}${offset}`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

function place(address: Record<string, unknown> | undefined): string {
  if (!address) return "";
  return [address.city, address.stateProvince, address.postalCode, address.countryCode ?? address.country]
    .map(str)
    .filter(Boolean)
    .join(", ");
}

function event(a: Activity): TrackingEvent | null {
  const date = isoFromUpsDate(a.date);
  const occurredAt = instant(a);
  if (!date || !occurredAt) return null;
  const time = clock(a.time);
  return {
    date,
    time: time ? time.slice(0, 5) : null,
    description: str(a.status?.description),
    location: place(a.location?.address),
    code: str(a.status?.code) || str(a.status?.statusCode),
    status: upsTrackerStatus(a.status),
    occurred_at: occurredAt,
  };
}

/** Newest first (UPS's order already, kept for equal instants). */
function newestFirst(events: TrackingEvent[]): TrackingEvent[] {
  return events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => b.e.occurred_at.localeCompare(a.e.occurred_at) || a.i - b.i)
    .map(({ e }) => e);
}

/** The scheduled (or rescheduled) delivery date UPS gives while the parcel is on its way. */
function estimatedDelivery(list: unknown): string | null {
  const dates = new Map<string, string>();
  for (const raw of asArray(list)) {
    const d = raw as { type?: unknown; date?: unknown };
    const iso = isoFromUpsDate(d.date);
    if (iso) dates.set(str(d.type).toUpperCase(), iso);
  }
  return dates.get("RDD") ?? dates.get("SDD") ?? null;
}

/** A 200 answer for `trackingNumber`: the result, or tracking_not_found. */
export function parseTrackResponse(
  body: unknown,
  trackingNumber: string,
): { data: TrackingResult; messages: AdapterMessage[] } {
  const shipments = asArray((body as { trackResponse?: { shipment?: unknown } })?.trackResponse?.shipment) as {
    warnings?: unknown;
    package?: unknown;
  }[];
  if (shipments.length === 0) throw badResponse("a trackResponse");
  const messages: AdapterMessage[] = [];
  for (const s of shipments) {
    for (const w of asArray(s.warnings)) {
      const { code, message } = w as { code?: unknown; message?: unknown };
      if (NOT_FOUND_CODES.has(str(code))) throw notFound(trackingNumber, str(message) || undefined, str(code));
      if (str(code) || str(message)) {
        messages.push({
          code: carrierCode(str(code) || "warning"),
          message: excerpt(str(message), 500),
          level: "warning",
        });
      }
    }
  }
  const packages = shipments.flatMap((s) => asArray(s.package)) as Package[];
  const pkg = packages.find((p) => str(p.trackingNumber).toUpperCase() === trackingNumber.toUpperCase()) ?? packages[0];
  if (!pkg) throw notFound(trackingNumber);

  const events = newestFirst(
    (asArray(pkg.activity) as Activity[]).map(event).filter((e): e is TrackingEvent => e !== null),
  );
  const status = pkg.currentStatus ? upsTrackerStatus(pkg.currentStatus) : (events[0]?.status ?? "unknown");
  const service = str(pkg.service?.description);
  const signedBy = str(pkg.deliveryInformation?.receivedBy);
  const left = str(pkg.deliveryInformation?.location);
  return {
    data: {
      tracking_number: str(pkg.trackingNumber) || trackingNumber,
      status,
      events,
      // UPS keeps the scheduled date on a parcel it has given up; promising it would mislead.
      estimated_delivery: status === "delivered" || status === "lost" ? null : estimatedDelivery(pkg.deliveryDate),
      meta: {
        ...(service ? { service_name: service } : {}),
        ...(signedBy ? { signed_by: signedBy } : {}),
        ...(left ? { delivery_location: left } : {}),
      },
    },
    messages,
  };
}

/** tracking_not_found for an error answer that says UPS does not know the number (TV1002, TW0001, a 404); else null. */
export function notFoundAnswer(body: unknown, status: number, trackingNumber: string): CarrierError | null {
  const errors = upsErrors(body);
  const known = errors.find((e) => NOT_FOUND_CODES.has(e.code)) ?? (status === 404 ? errors[0] : undefined);
  if (known) return notFound(trackingNumber, known.message, known.code);
  return status === 404 ? notFound(trackingNumber) : null;
}
