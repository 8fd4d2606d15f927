import "server-only";
import { CURRENT_API_VERSION, type ApiVersion } from "@/lib/schemas/api-key";
import { Event } from "@/lib/schemas/event";
import { isApiVersion, responseInVersion } from "@/lib/versions";
import { formatTimestamp } from "@/lib/timestamp";
import { presentEvent, type EventRow } from "./event-rows";

/**
 * The body of a webhook (docs/webhooks.md, "Payload"): the event as `GET /v1/events/{id}` answers it, `{"id",
 * "type", "created_at", "test_mode", "data"}`, in the endpoint's API version. Events are stored with `data` in the
 * current version; the Event schema's union on `type` tells the version's changes which resource `data` is.
 */

/** An endpoint row's version; a value no version has (never written by the API) falls back to the current one. */
export const endpointVersion = (apiVersion: string): ApiVersion =>
  isApiVersion(apiVersion) ? apiVersion : CURRENT_API_VERSION;

export function eventPayload(event: EventRow, version: ApiVersion): string {
  return JSON.stringify(responseInVersion(version, Event, presentEvent(event)));
}

/** The test ping (`POST /v1/webhooks/{id}/test`): no stored event, the same envelope. */
export function pingPayload(eventId: string, endpoint: { id: string; testMode: boolean }, now: Date): string {
  return JSON.stringify({
    id: eventId,
    type: "ping",
    created_at: formatTimestamp(now),
    test_mode: endpoint.testMode,
    data: { webhook_id: endpoint.id },
  });
}
