import { z } from "zod";
import { Address } from "./address";
import { Parcel } from "./parcel";
import { Rate } from "./rate";
import { Payment } from "./payment";
import { Message } from "./message";
import { Timestamp } from "./common";

export const SHIPMENT_STATUSES = [
  "created",
  "purchased",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "needs_attention",
  "delivery_failed",
  "cancelled",
] as const;

export const Shipment = z
  .object({
    id: z.string().nullable(),
    status: z.enum(SHIPMENT_STATUSES),
    carrier_name: z.string().nullable(),
    carrier_id: z.string().nullable(),
    label: z.string().nullable(),
    tracking_number: z.string().nullable(),
    shipment_identifier: z.string().nullable(),
    selected_rate: Rate.nullable(),
    selected_rate_id: z.string().nullable(),
    rates: z.array(Rate),
    tracking_url: z.string().nullable(),
    service: z.string().nullable(),
    shipper: Address,
    recipient: Address,
    parcels: z.array(Parcel),
    services: z.array(z.string()),
    options: z.record(z.string(), z.unknown()),
    payment: Payment.nullable(),
    customs: z.record(z.string(), z.unknown()).nullable(),
    reference: z.string().nullable(),
    label_type: z.string(),
    carrier_ids: z.array(z.string()),
    meta: z.record(z.string(), z.unknown()),
    created_at: Timestamp,
    test_mode: z.boolean(),
    messages: z.array(Message),
    tracker_id: z.string().nullable(),
  })
  .meta({ id: "Shipment" });
export type Shipment = z.output<typeof Shipment>;
