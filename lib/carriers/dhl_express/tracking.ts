import { CarrierError, type AdapterMessage, type TrackingEvent, type TrackingResult } from "@/lib/carriers/types";
import { DHL, dhlProblems, refusal, warningMessages } from "@/lib/carriers/dhl_express/errors";
import { dhlStatus } from "@/lib/carriers/dhl_express/status";
import type { DhlAnswer } from "@/lib/carriers/dhl_express/api";
import { datePart, isRecord, records, str } from "@/lib/carriers/dhl_express/wire";

/**
 * Tracking (`GET /shipments/{shipmentTrackingNumber}/tracking`): every checkpoint of the shipment, with each event's
 * offset from GMT (`requestGMTOffsetPerEvent`) so that events order and de-duplicate by their instant. DHL lists
 * events oldest first; ours are newest first. A number DHL does not know is its 404 problem ("No data found").
 */

/** What DHL is sent: digits only (people paste waybill numbers with spaces, as printed on labels). */
const normalizeNumber = (n: string) => n.replace(/[\s-]/g, "").toUpperCase();

export function trackPath(trackingNumber: string): string {
  const query = new URLSearchParams({
    trackingView: "all-checkpoints",
    levelOfDetail: "shipment",
    requestGMTOffsetPerEvent: "true",
  });
  return `/shipments/${encodeURIComponent(normalizeNumber(trackingNumber))}/tracking?${query}`;
}

const OFFSET = /^[+-]\d{2}:\d{2}$/;

function eventOf(e: Record<string, unknown>): TrackingEvent | null {
  const date = datePart(e.date);
  const time = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(str(e.time) ?? "");
  if (!date || !time) return null;
  const offset = str(e.GMTOffset);
  // An event without its offset is read as UTC rather than dropped.
  const instant = Date.parse(
    `${date}T${time[1]}:${time[2]}:${time[3] ?? "00"}${offset && OFFSET.test(offset) ? offset : "Z"}`,
  );
  if (!Number.isFinite(instant)) return null;
  const code = str(e.typeCode) ?? "";
  const area = records(e.serviceArea)[0];
  return {
    date,
    time: `${time[1]}:${time[2]}`,
    description: str(e.description) ?? code,
    location: str(area?.description) ?? str(area?.code) ?? "",
    code,
    status: dhlStatus(code),
    occurred_at: new Date(instant).toISOString(),
  };
}

function notFound(trackingNumber: string, message?: string): CarrierError {
  return new CarrierError(
    "tracking_not_found",
    message ?? `${DHL} has no record of tracking number ${trackingNumber}.`,
    {
      tracking_number: trackingNumber,
    },
  );
}

/** The answer for one number: its shipment's events newest first, or tracking_not_found. */
export function parseTrackAnswer(
  answer: DhlAnswer,
  trackingNumber: string,
): { result: TrackingResult; messages: AdapterMessage[] } {
  if (answer.status === 404) throw notFound(trackingNumber, dhlProblems(answer.body, 404)[0]?.message);
  if (answer.status >= 300) throw refusal(answer.status, answer.body);
  const body = isRecord(answer.body) ? answer.body : {};
  const shipments = records(body.shipments);
  const shipment =
    shipments.find((s) => normalizeNumber(str(s.shipmentTrackingNumber) ?? "") === normalizeNumber(trackingNumber)) ??
    shipments[0];
  if (!shipment) throw notFound(trackingNumber);
  const events = records(shipment.events)
    .map(eventOf)
    .filter((e): e is TrackingEvent => e !== null)
    .sort((a, b) => (a.occurred_at < b.occurred_at ? 1 : a.occurred_at > b.occurred_at ? -1 : 0));
  const receiver = isRecord(shipment.receiverDetails) ? shipment.receiverDetails : {};
  const delivered = records(shipment.events).find((e) => str(e.typeCode) === "OK");
  const meta: Record<string, unknown> = {
    product_code: str(shipment.productCode),
    service: str(shipment.description),
    destination_country: isRecord(receiver.postalAddress) ? str(receiver.postalAddress.countryCode) : null,
    signed_by: str(delivered?.signedBy),
  };
  return {
    result: {
      tracking_number: trackingNumber,
      // A shipment DHL knows but has not scanned yet: a label, no parcel with DHL.
      status: events[0]?.status ?? "pending",
      events,
      estimated_delivery: datePart(shipment.estimatedDeliveryDate),
      meta: Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== null)),
    },
    messages: warningMessages(body.warnings),
  };
}
