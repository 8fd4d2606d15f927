import type { TrackingResult } from "@/lib/carriers/types";
import type { Tracker } from "@/lib/schemas/tracker";

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
    events: result.events.map((e) => ({
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
