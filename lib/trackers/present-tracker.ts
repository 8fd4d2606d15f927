import type { TrackingEvent, TrackingResult } from "@/lib/carriers/types";
import type { Tracker } from "@/lib/schemas/tracker";

/** CONTRACT §7 once for every carrier: newest first, each event once (carriers repeat scans across pages). */
export function orderEvents(events: TrackingEvent[]): TrackingEvent[] {
  const seen = new Set<string>();
  return [...events]
    .sort((a, b) => Date.parse(b.occurred_at) - Date.parse(a.occurred_at))
    .filter((e) => {
      const key = [e.occurred_at, e.code, e.description, e.location].join("|");
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

export function presentTracker(
  result: TrackingResult,
  connection: { carrierName: string; carrierId: string; testMode: boolean },
  id: string | null = null,
): Tracker {
  return {
    id,
    carrier_name: connection.carrierName,
    carrier_id: connection.carrierId,
    tracking_number: result.tracking_number,
    events: orderEvents(result.events).map((e) => ({
      date: e.date,
      time: e.time,
      description: e.description,
      location: e.location,
      code: e.code,
      status: e.status,
    })),
    delivered: result.status === "delivered",
    test_mode: connection.testMode,
    status: result.status,
    estimated_delivery: result.estimated_delivery,
  };
}
