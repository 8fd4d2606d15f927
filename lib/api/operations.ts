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
  ...(["get", "patch", "delete"] as const).map(
    (method): ApiOperation => ({
      method,
      path: "/v1/connections/{id}",
      operationId: `${method === "get" ? "get" : method === "patch" ? "update" : "delete"}Connection`,
      summary: `${method === "get" ? "Retrieve" : method === "patch" ? "Update" : "Delete"} a carrier connection`,
      tag: "Connections",
      pathParams: ["id"],
      ...(method === "patch" ? { requestRef: "ConnectionUpdate" } : {}),
      responseRef: "Connection",
      responses: { "200": "The connection", "404": "not_found" },
    }),
  ),
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
    responses: { "200": "The purchased shipment (status purchased, ids null)", "404": "carrier_not_found", "424": "The carrier refused" },
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
    path: "/v1/openapi.json",
    operationId: "getOpenApi",
    summary: "This document",
    tag: "Meta",
    public: true,
    responses: { "200": "OpenAPI 3.1 document" },
  },
];
