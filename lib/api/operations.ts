import type { z } from "zod";
import { ProxyRatesRequest, ProxyShippingRequest, RatesResponse, TrackingResponse } from "@/lib/schemas/proxy";

/** One entry per public operation; the OpenAPI document is built from this list and the zod schemas. */
export interface ApiOperation {
  method: "get" | "post" | "patch" | "delete";
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  public?: boolean;
  pathParams?: string[];
  queryParams?: { name: string; description: string; type?: "string" | "integer" | "boolean" }[];
  /** A request body schema defined beside its route (rendered as input). */
  requestSchema?: { id: string; schema: z.ZodType };
  /** Or a reference to a schema already among the components. */
  requestRef?: string;
  responseSchema?: { id: string; schema: z.ZodType };
  responseRef?: string;
  responseContentType?: string;
  /** A file download: the 200 answer is one of these media types, as bytes. */
  responseFiles?: string[];
  /** Status → description; 2xx use the response schema, 424 the carriers' messages, others the error envelope. */
  responses: Record<string, string>;
}

const page = [
  { name: "limit", description: "1–100, default 20", type: "integer" as const },
  { name: "offset", description: "default 0", type: "integer" as const },
];

export const apiOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/v1/connections",
    operationId: "listConnections",
    summary: "List carrier connections",
    tag: "Connections",
    queryParams: [
      ...page,
      { name: "carrier_name", description: "Only this carrier" },
      { name: "active", description: "true or false", type: "boolean" },
    ],
    responseRef: "ConnectionList",
    responses: { "200": "A page of connections" },
  },
  {
    method: "post",
    path: "/v1/connections",
    operationId: "createConnection",
    summary: "Create a carrier connection (credentials are write-only and encrypted at rest)",
    tag: "Connections",
    requestRef: "ConnectionCreate",
    responseRef: "Connection",
    responses: { "201": "The new connection" },
  },
  ...(["get", "patch", "delete"] as const).map((method): ApiOperation => ({
    method,
    path: "/v1/connections/{id}",
    operationId: `${method === "get" ? "get" : method === "patch" ? "update" : "delete"}Connection`,
    summary: `${method === "get" ? "Retrieve" : method === "patch" ? "Update" : "Delete"} a carrier connection`,
    tag: "Connections",
    pathParams: ["id"],
    ...(method === "patch" ? { requestRef: "ConnectionUpdate" } : {}),
    responseRef: "Connection",
    responses: { "200": "The connection", "404": "not_found" },
  })),
  {
    method: "post",
    path: "/v1/proxy/rates",
    operationId: "proxyRates",
    summary: "Rates from every selected carrier connection, nothing stored",
    tag: "Proxy",
    requestSchema: { id: "ProxyRatesRequest", schema: ProxyRatesRequest },
    responseSchema: { id: "RatesResponse", schema: RatesResponse },
    responses: {
      "200": "Every carrier answered; rates sorted by total_charge",
      "207": "Some carriers failed: their messages beside the other carriers' rates",
      "404": "carrier_not_found",
      "424": "Every carrier failed",
    },
  },
  {
    method: "post",
    path: "/v1/proxy/shipping",
    operationId: "proxyShipping",
    summary: "Buy a label for one of the given rates, nothing stored",
    tag: "Proxy",
    requestSchema: { id: "ProxyShippingRequest", schema: ProxyShippingRequest },
    responseRef: "Shipment",
    responses: {
      "200": "The purchased shipment (status purchased, ids null)",
      "404": "carrier_not_found",
      "424": "The carrier refused",
    },
  },
  {
    method: "get",
    path: "/v1/proxy/tracking/{carrier_name}/{tracking_number}",
    operationId: "proxyTracking",
    summary: "Tracking details from the carrier, nothing stored",
    tag: "Proxy",
    pathParams: ["carrier_name", "tracking_number"],
    queryParams: [{ name: "carrier_id", description: "Use this connection of the carrier" }],
    responseSchema: { id: "TrackingResponse", schema: TrackingResponse },
    responses: {
      "200": "Tracking details, events newest first",
      "404": "carrier_not_found, or the carrier does not know the number (messages body)",
      "424": "The carrier failed",
    },
  },
  {
    method: "get",
    path: "/v1/shipments",
    operationId: "listShipments",
    summary: "List stored shipments, newest first",
    tag: "Shipments",
    queryParams: [
      ...page,
      {
        name: "status",
        description:
          "created, purchased, in_transit, out_for_delivery, delivered, needs_attention, delivery_failed or cancelled",
      },
      { name: "carrier_name", description: "Carrier of the bought label" },
      { name: "tracking_number", description: "Exact tracking number" },
      { name: "reference", description: "Exact reference" },
      { name: "created_after", description: "ISO 8601 date or timestamp (inclusive)" },
      { name: "created_before", description: "ISO 8601 date or timestamp (exclusive)" },
      { name: "q", description: "Free text over reference, tracking number, recipient name, city and postal code" },
    ],
    responseRef: "ShipmentList",
    responses: { "200": "A page of shipments" },
  },
  {
    method: "post",
    path: "/v1/shipments",
    operationId: "createShipment",
    summary: "Store a shipment and rate it with the selected connections",
    tag: "Shipments",
    requestRef: "ShipmentCreate",
    responseRef: "Shipment",
    responses: {
      "201": "The created shipment with its rates; carriers that failed are in messages",
      "404": "carrier_not_found",
      "424": "Every carrier failed; nothing stored",
    },
  },
  {
    method: "get",
    path: "/v1/shipments/{id}",
    operationId: "getShipment",
    summary: "Retrieve a shipment",
    tag: "Shipments",
    pathParams: ["id"],
    responseRef: "Shipment",
    responses: { "200": "The shipment", "404": "not_found" },
  },
  {
    method: "post",
    path: "/v1/shipments/{id}/purchase",
    operationId: "purchaseShipment",
    summary: "Buy the label for one of the shipment's rates (exactly one label per shipment)",
    tag: "Shipments",
    pathParams: ["id"],
    requestRef: "ShipmentPurchase",
    responseRef: "ShipmentWithMessages",
    responses: {
      "200": "The purchased shipment, with a linked tracker",
      "404": "not_found, or carrier_not_found",
      "409": "state_conflict: already purchased, cancelled, or a purchase is in progress",
      "424": "The carrier refused; the shipment stays created",
    },
  },
  {
    method: "post",
    path: "/v1/shipments/{id}/cancel",
    operationId: "cancelShipment",
    summary: "Cancel a shipment, voiding its label at the carrier when it was purchased",
    tag: "Shipments",
    pathParams: ["id"],
    responseRef: "ShipmentWithMessages",
    responses: {
      "200": "The cancelled shipment (also when it already was); a warning when the carrier cannot void",
      "404": "not_found, or carrier_not_found",
      "409": "state_conflict: the parcel is already moving, or another operation is in progress",
      "424": "The carrier refused to void; the shipment stays purchased",
    },
  },
  {
    method: "get",
    path: "/v1/shipments/{id}/label",
    operationId: "getShipmentLabel",
    summary: "The label file itself (PDF, ZPL or PNG) as a download",
    tag: "Shipments",
    pathParams: ["id"],
    queryParams: [{ name: "format", description: "PDF, ZPL or PNG; must match the label bought" }],
    responseFiles: ["application/pdf", "application/zpl", "image/png"],
    responses: {
      "200": "The file",
      "400": "format does not match the label",
      "404": "not_found",
      "409": "No label yet, or voided",
    },
  },
  {
    method: "get",
    path: "/v1/trackers",
    operationId: "listTrackers",
    summary: "List stored trackers, newest first",
    tag: "Trackers",
    queryParams: [
      ...page,
      { name: "status", description: "A tracker status (pending, in_transit, delivered, …)" },
      { name: "carrier_name", description: "Only this carrier" },
      { name: "tracking_number", description: "Exact tracking number" },
      { name: "delivered", description: "true or false", type: "boolean" },
    ],
    responseRef: "TrackerList",
    responses: { "200": "A page of trackers" },
  },
  ...(["post", "get"] as const).map((method): ApiOperation => ({
    method,
    path: "/v1/trackers/{carrier_name}/{tracking_number}",
    operationId: method === "post" ? "createTracker" : "createTrackerViaGet",
    summary: "Create the organization's tracker for this number, or return the existing one",
    tag: "Trackers",
    pathParams: ["carrier_name", "tracking_number"],
    queryParams: [{ name: "carrier_id", description: "Use this connection of the carrier" }],
    responseRef: "StoredTracker",
    responses: {
      "200": "The existing tracker",
      "201": "A new tracker with the carrier's latest details",
      "404": "carrier_not_found, or the carrier does not know the number (messages body)",
      "424": "The carrier failed; nothing stored",
    },
  })),
  ...(["get", "delete"] as const).map((method): ApiOperation => ({
    method,
    path: "/v1/trackers/{id}",
    operationId: method === "get" ? "getTracker" : "deleteTracker",
    summary: method === "get" ? "Retrieve a tracker" : "Stop tracking and delete the tracker (answers it as it was)",
    tag: "Trackers",
    pathParams: ["id"],
    responseRef: "StoredTracker",
    responses: { "200": "The tracker", "404": "not_found" },
  })),
  {
    method: "post",
    path: "/v1/trackers/{id}/refresh",
    operationId: "refreshTracker",
    summary: "Ask the carrier now and merge the new events",
    tag: "Trackers",
    pathParams: ["id"],
    responseRef: "StoredTracker",
    responses: {
      "200": "The refreshed tracker",
      "404": "not_found, or carrier_not_found",
      "424": "The carrier failed; the tracker is unchanged",
    },
  },
  {
    method: "get",
    path: "/v1/openapi.json",
    operationId: "getOpenApi",
    summary: "This document",
    tag: "Meta",
    public: true,
    responses: { "200": "OpenAPI 3.1 document" },
  },
];
