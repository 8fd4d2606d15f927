import "server-only";
import type { z } from "zod";
import { CURRENT_API_VERSION, type ApiVersion } from "@/lib/schemas/api-key";
import { Shipment } from "@/lib/schemas/shipment";
import { StoredTracker } from "@/lib/schemas/tracker";
import { formatTimestamp } from "@/lib/timestamp";
import { isApiVersion, responseInVersion } from "@/lib/versions";

/**
 * The body of a webhook (docs/webhooks.md, "Payload"): `{"id", "type", "created_at", "test_mode", "data"}`. Events
 * are stored with `data` in the current API version; each endpoint hears it in the version it was made with, by
 * the same changes that present an API answer in an older version.
 */

/** The schema of an event's `data`, by the resource its type names. */
function dataSchema(type: string): z.ZodType | undefined {
  if (type.startsWith("shipment.")) return Shipment;
  if (type.startsWith("tracker.")) return StoredTracker;
  return undefined;
}

export interface EventForPayload {
  id: string;
  type: string;
  createdAt: Date;
  testMode: boolean;
  data: Record<string, unknown>;
}

/** An endpoint row's version; a value no version has (never written by the API) falls back to the current one. */
export const endpointVersion = (apiVersion: string): ApiVersion =>
  isApiVersion(apiVersion) ? apiVersion : CURRENT_API_VERSION;

export function eventPayload(event: EventForPayload, version: ApiVersion): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: formatTimestamp(event.createdAt),
    test_mode: event.testMode,
    data: responseInVersion(version, dataSchema(event.type), event.data),
  });
}

/** The test ping (`POST /v1/webhooks/{id}/test`): no stored event, the same envelope. */
export function pingPayload(eventId: string, endpoint: { id: string; testMode: boolean }, now: Date): string {
  return eventPayload(
    { id: eventId, type: "ping", createdAt: now, testMode: endpoint.testMode, data: { webhook_id: endpoint.id } },
    CURRENT_API_VERSION,
  );
}
