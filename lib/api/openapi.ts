import { z } from "zod";
import { ERROR_STATUS } from "./errors";
import { Address, AddressInput } from "@/lib/schemas/address";
import { Parcel, ParcelInput } from "@/lib/schemas/parcel";
import { Payment, PaymentInput } from "@/lib/schemas/payment";
import { Rate, RateInput } from "@/lib/schemas/rate";
import { Shipment, ShipmentCreate, ShipmentPurchase, ShipmentWithMessages } from "@/lib/schemas/shipment";
import { StoredTracker, Tracker, TrackingEvent } from "@/lib/schemas/tracker";
import { ErrorEnvelope, Message, MessagesEnvelope } from "@/lib/schemas/message";
import { Connection, ConnectionCreate, ConnectionUpdate } from "@/lib/schemas/connection";
import { pageOf } from "@/lib/schemas/pagination";
import { apiOperations } from "./operations";

/**
 * OpenAPI 3.1 from the same zod schemas that validate requests (CONTRACT §10). Request schemas are rendered as
 * the JSON a client may send (io: input), response schemas as the JSON we answer with (io: output).
 */
export const INPUT_SCHEMAS = {
  AddressInput,
  ParcelInput,
  PaymentInput,
  RateInput,
  ConnectionCreate,
  ConnectionUpdate,
  ShipmentCreate,
  ShipmentPurchase,
};
export const OUTPUT_SCHEMAS = {
  Address,
  Parcel,
  Payment,
  Rate,
  Shipment,
  ShipmentWithMessages,
  ShipmentList: pageOf(Shipment, "ShipmentList"),
  Tracker,
  StoredTracker,
  TrackerList: pageOf(StoredTracker, "TrackerList"),
  TrackingEvent,
  Message,
  Error: ErrorEnvelope,
  CarrierFailure: MessagesEnvelope,
  Connection,
  ConnectionList: pageOf(Connection, "ConnectionList"),
};

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function componentSchemas(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const render = (schemas: Record<string, z.ZodType>, io: "input" | "output") => {
    const registry = z.registry<{ id: string }>();
    for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
    const { schemas: rendered } = z.toJSONSchema(registry, {
      io,
      target: "draft-2020-12",
      unrepresentable: "any",
      uri: (id) => `#/components/schemas/${id}`,
    });
    Object.assign(out, rendered);
  };
  render(
    {
      ...OUTPUT_SCHEMAS,
      ...Object.fromEntries(
        apiOperations.flatMap((o) => (o.responseSchema ? [[o.responseSchema.id, o.responseSchema.schema]] : [])),
      ),
    },
    "output",
  );
  render(
    {
      ...INPUT_SCHEMAS,
      ...Object.fromEntries(
        apiOperations.flatMap((o) => (o.requestSchema ? [[o.requestSchema.id, o.requestSchema.schema]] : [])),
      ),
    },
    "input",
  );
  for (const value of Object.values(out)) delete (value as Record<string, unknown>).$schema;
  return out;
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ref("Error") } },
});

let cached: Record<string, unknown> | null = null;

export function openApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of apiOperations) {
    const responses: Record<string, unknown> = {};
    for (const [status, description] of Object.entries(op.responses)) {
      const carrierFailure = status === "424" || (status === "404" && description.includes("messages"));
      const schemaId = carrierFailure
        ? "CarrierFailure"
        : Number(status) < 300
          ? (op.responseSchema?.id ?? op.responseRef)
          : null;
      const file = Number(status) < 300 && op.responseFiles;
      responses[status] = file
        ? {
            description,
            content: Object.fromEntries(file.map((type) => [type, { schema: { type: "string", format: "binary" } }])),
          }
        : schemaId
          ? { description, content: { [op.responseContentType ?? "application/json"]: { schema: ref(schemaId) } } }
          : errorResponse(description);
    }
    for (const code of ["400", "401", "429", "500", "503"]) {
      responses[code] ??= errorResponse(
        Object.entries(ERROR_STATUS)
          .filter(([, s]) => String(s) === code)
          .map(([c]) => c)
          .join(" | "),
      );
    }
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      tags: [op.tag],
      ...(op.public ? { security: [] } : {}),
      parameters: [
        ...(op.pathParams ?? []).map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
        ...(op.queryParams ?? []).map((q) => ({
          name: q.name,
          in: "query",
          required: false,
          description: q.description,
          schema: { type: q.type ?? "string" },
        })),
        ...(op.method === "post"
          ? [
              {
                name: "Idempotency-Key",
                in: "header",
                required: false,
                schema: { type: "string", minLength: 1, maxLength: 255 },
              },
            ]
          : []),
      ],
      ...(op.requestSchema || op.requestRef
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: ref(op.requestSchema?.id ?? op.requestRef!) } },
            },
          }
        : {}),
      responses,
    };
  }
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Shipwell API",
      version: "1.0.0",
      description: "One API in front of many carriers: proxy mode (nothing stored) and managed mode. See docs/api.md.",
    },
    servers: [{ url: "/" }],
    security: [{ token: [] }],
    components: {
      securitySchemes: {
        token: { type: "apiKey", in: "header", name: "Authorization", description: "`Token <API_KEY>`" },
      },
      schemas: componentSchemas(),
    },
    paths,
  };
  return cached;
}
