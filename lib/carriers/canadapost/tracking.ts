import type { CarrierResponse } from "@/lib/carriers/http/client";
import {
  CarrierError,
  type AdapterResult,
  type TrackerStatus,
  type TrackingEvent,
  type TrackingResult,
} from "@/lib/carriers/types";
import { badResponse, cpMessages, errorFromResponse } from "./errors";
import { canadapostStatus } from "./status";
import { list, node, parseXml, text } from "./xml";

/**
 * Get Tracking Details (docs/canadapost.md, "Tracking"; track.xsd `tracking-detail`):
 * `GET /vis/track/pin/{pin}/detail`, one PIN per call. `significant-events/occurrence` come newest first with Canada
 * Post's local date, time and zone.
 */

/**
 * Canada Post's PINs are 12, 13 or 16 characters (Get Tracking Details: 12 or 16 digits, or an S10 number such as
 * `LM123456789CA`; shipment.xsd's `TrackingPINType` allows 11 to 16).
 */
export function trackingPin(number: string): string | null {
  const pin = number.replace(/\s+/g, "").toUpperCase();
  return /^(\d{12}|\d{16}|[A-Z]{2}\d{9}[A-Z]{2})$/.test(pin) ? pin : null;
}

export const notFound = (number: string, code?: string) =>
  new CarrierError("tracking_not_found", `Canada Post has no tracking for ${number}.`, {
    tracking_number: number,
    ...(code ? { carrier_code: code } : {}),
  });

/** Canada Post's zone abbreviations (event-time-zone) as UTC offsets in minutes. */
const ZONES: ReadonlyMap<string, number> = new Map([
  ["NST", -210],
  ["NDT", -150],
  ["AST", -240],
  ["ADT", -180],
  ["EST", -300],
  ["EDT", -240],
  ["CST", -360],
  ["CDT", -300],
  ["MST", -420],
  ["MDT", -360],
  ["PST", -480],
  ["PDT", -420],
  ["UTC", 0],
  ["GMT", 0],
]);

function instant(date: string, time: string | null, zone: string | null): string {
  const t = /^\d{1,2}:\d{2}(:\d{2})?$/.test(time ?? "")
    ? time!.padStart(time!.indexOf(":") === 1 ? 8 : 5, "0")
    : "12:00";
  const hms = t.length === 5 ? `${t}:00` : t;
  const offset = ZONES.get((zone ?? "").toUpperCase()) ?? -300; // Eastern when Canada Post names none it documents
  const utc = Date.parse(`${date}T${hms}Z`) - offset * 60_000;
  return Number.isFinite(utc) ? new Date(utc).toISOString() : new Date(`${date}T00:00:00Z`).toISOString();
}

export function parseTrackResponse(xml: string, number: string): AdapterResult<TrackingResult> {
  const detail = node(parseXml(xml)["tracking-detail"]);
  if (!detail) throw badResponse("tracking details");
  const occurrences = list(node(detail["significant-events"])?.occurrence).map(node);
  const events: TrackingEvent[] = [];
  const statuses: (TrackerStatus | null)[] = [];
  for (const o of occurrences) {
    const date = text(o?.["event-date"]);
    if (!o || !date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) continue;
    const time = text(o["event-time"]);
    const identifier = text(o["event-identifier"]) ?? "";
    const own = canadapostStatus(identifier);
    statuses.push(own);
    events.push({
      date,
      time: time ? time.slice(0, 5) : null,
      description: text(o["event-description"]) ?? "",
      location: [text(o["event-site"]), text(o["event-province"])].filter(Boolean).join(", "),
      code: identifier,
      status: own ?? "in_transit",
      occurred_at: instant(date, time, text(o["event-time-zone"])),
    });
  }
  // An event that says no status (a signature image recorded) keeps the status of the event before it.
  for (let i = events.length - 1; i >= 0; i--) {
    if (statuses[i] === null) events[i]!.status = i + 1 < events.length ? events[i + 1]!.status : "in_transit";
  }
  const status = events[0]?.status ?? "pending";
  const signedBy = occurrences.map((o) => text(o?.["signatory-name"])).find(Boolean) ?? null;
  const final = status === "delivered" || status === "lost";
  const expected = text(detail["changed-expected-date"]) ?? text(detail["expected-delivery-date"]);
  return {
    data: {
      tracking_number: text(detail.pin) ?? number,
      status,
      events,
      estimated_delivery: !final && expected && /^\d{4}-\d{2}-\d{2}$/.test(expected) ? expected : null,
      meta: {
        ...(text(detail["service-name"]) ? { service_name: text(detail["service-name"]) } : {}),
        ...(signedBy ? { signed_by: signedBy } : {}),
      },
    },
    messages: [],
  };
}

/** 404, or `<messages>` with 004 ("No Pin History") or 002 (PIN not found): tracking_not_found. */
export function trackFailure(res: CarrierResponse, number: string): CarrierError {
  const messages = cpMessages(res);
  const missing = messages.find((m) => m.code === "004" || m.code === "002");
  if (missing || (res.status === 404 && messages.length === 0)) return notFound(number, missing?.code);
  return errorFromResponse(res);
}
