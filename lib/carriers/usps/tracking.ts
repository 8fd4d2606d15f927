import {
  CarrierError,
  type AdapterResult,
  type TrackerStatus,
  type TrackingEvent,
  type TrackingResult,
} from "@/lib/carriers/types";
import { badResponse } from "@/lib/carriers/usps/errors";
import { uspsStatus } from "@/lib/carriers/usps/status";

/**
 * Tracking (tracking.yaml `GET /tracking/v3/tracking/{trackingNumber}?expand=DETAIL`; docs/usps.md, "Tracking"): one
 * number per call, its events newest first. An event's `eventTimestamp` is the local time where it happened (read as
 * written), `GMTTimestamp` the instant (used for ordering). USPS writes mail class names with HTML in them
 * ("Priority Mail<SUP>&#153;</SUP>"): tags are dropped and entities decoded before they reach a client.
 */

/** A USPS tracking number as sent: IMpb digits (20 to 34) or a 13-character S10 (`LX123456789US`); null otherwise. */
export function trackingNumberOf(text: string): string | null {
  const t = text.replace(/\s+/g, "").toUpperCase();
  return /^\d{20,34}$/.test(t) || /^[A-Z]{2}\d{9}[A-Z]{2}$/.test(t) ? t : null;
}

export function notFound(trackingNumber: string): CarrierError {
  return new CarrierError("tracking_not_found", "USPS has no parcel with this tracking number.", {
    tracking_number: trackingNumber.slice(0, 40),
  });
}

// Windows-1252's 128–159 (USPS writes &#153; for ™), as Unicode.
const CP1252 = new Map([
  [128, "€"], [130, "‚"], [132, "„"], [133, "…"], [145, "‘"], [146, "’"], [147, "“"], [148, "”"],
  [150, "–"], [151, "—"], [153, "™"],
]); // prettier-ignore
const NAMED = new Map([
  ["amp", "&"], ["lt", "<"], ["gt", ">"], ["quot", '"'], ["apos", "'"], ["nbsp", " "], ["reg", "®"],
  ["trade", "™"], ["copy", "©"],
]); // prettier-ignore

/** Text without HTML: tags dropped, entities decoded, spaces collapsed. */
export function plainText(html: unknown): string {
  if (typeof html !== "string") return "";
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, e: string) => {
      if (e.startsWith("#")) {
        const n = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        const mapped = CP1252.get(n);
        if (mapped) return mapped;
        return Number.isFinite(n) &&
          n > 31 &&
          n !== 127 &&
          n <= 0x10ffff &&
          !(n >= 128 && n < 160) &&
          !(n >= 0xd800 && n <= 0xdfff)
          ? String.fromCodePoint(n)
          : "";
      }
      return NAMED.get(e.toLowerCase()) ?? whole;
    })
    .replace(/\s+/g, " ")
    .trim();
}

const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** `YYYY-MM-DDTHH:MM…` as written (the place's own clock), whatever offset follows. */
function localParts(stamp: string): { date: string; time: string | null } | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}))?/.exec(stamp);
  return m ? { date: m[1]!, time: m[2] ?? null } : null;
}

const ZONED = /(?:[zZ]|[+-]\d{2}:?\d{2})$/;

/** `GMTOffset` as an ISO offset: tracking.yaml writes "-7:00" (one hour digit) as well as "-07:00"; null otherwise. */
function gmtOffset(offset: string): string | null {
  const m = /^([+-])(\d{1,2}):(\d{2})$/.exec(offset);
  return m ? `${m[1]}${m[2]!.padStart(2, "0")}:${m[3]}` : null;
}

/**
 * The event's instant: `GMTTimestamp` (UTC by its name, with or without a `Z`), else the local `eventTimestamp` with
 * its own offset or `GMTOffset`; null when neither reads.
 */
function instant(gmt: string, local: string, offset: string): string | null {
  const iso = gmtOffset(offset);
  const candidates = [
    gmt && (ZONED.test(gmt) ? gmt : `${gmt}Z`),
    local && (ZONED.test(local) ? local : iso ? `${local}${iso}` : ""),
  ];
  for (const c of candidates) {
    const t = c ? Date.parse(c) : NaN;
    if (Number.isFinite(t)) return new Date(t).toISOString();
  }
  return null;
}

function eventOf(raw: unknown): TrackingEvent | null {
  const e = raw as Record<string, unknown> | null;
  if (!e || typeof e !== "object") return null;
  const local = str(e.eventTimestamp);
  const parts = localParts(local) ?? localParts(str(e.GMTTimestamp));
  const occurred = instant(str(e.GMTTimestamp), local, str(e.GMTOffset));
  if (!parts || !occurred) return null;
  const code = str(e.eventCode).toUpperCase();
  const place = [str(e.eventCity), [str(e.eventState), str(e.eventZIP)].filter(Boolean).join(" "), str(e.eventCountry)]
    .filter(Boolean)
    .join(", ");
  return {
    date: parts.date,
    time: parts.time,
    description: plainText(e.eventType).slice(0, 300),
    location: place.slice(0, 200),
    code,
    status: uspsStatus(code) ?? "in_transit",
    occurred_at: occurred,
  };
}

/** The answer to `expand=DETAIL` as our tracking result. */
export function parseTrackResponse(body: unknown, trackingNumber: string): AdapterResult<TrackingResult> {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== "object" || Array.isArray(b)) throw badResponse("tracking details");
  const rawEvents = Array.isArray(b.trackingEvents) ? b.trackingEvents : [];
  const events = rawEvents
    .map(eventOf)
    .filter((e): e is TrackingEvent => e !== null)
    .sort((a, z) => z.occurred_at.localeCompare(a.occurred_at));
  const latest = events[0];
  // The newest event's code when the table knows it, else USPS's category, else movement (an event) or pending.
  const status: TrackerStatus =
    (latest ? uspsStatus(latest.code) : null) ??
    uspsStatus(null, b.statusCategory) ??
    (latest ? "in_transit" : "pending");
  const expected = str(b.expectedDeliveryTimeStamp) || str(b.predictedDeliveryDate);
  const mailClass = plainText(b.mailClass);
  return {
    data: {
      tracking_number: str(b.trackingNumber) || trackingNumber,
      status,
      events,
      estimated_delivery: /^\d{4}-\d{2}-\d{2}/.exec(expected)?.[0] ?? null,
      meta: mailClass ? { mail_class: mailClass } : {},
    },
    messages: [],
  };
}
