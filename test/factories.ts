import { POST as createConnection } from "@/app/v1/connections/route";
import { call } from "./helpers";

/** The ship-from of the tests: a Chicago warehouse with a name, a company and a phone. */
export const usShipper = {
  person_name: "Ada Shipper",
  company_name: "Acme Warehouse",
  address_line1: "500 Industrial Way",
  city: "Chicago",
  state_code: "IL",
  postal_code: "60607",
  country_code: "US",
  phone_number: "+1 312 555 0100",
};

export const usRecipient = {
  person_name: "Bob Receiver",
  address_line1: "12 Elm Street",
  address_line2: "Apt 4",
  city: "Austin",
  state_code: "TX",
  postal_code: "78701",
  country_code: "US",
  residential: true,
};

/** A recipient across a customs border from usShipper, and the declaration such a label needs. */
export const torontoRecipient = {
  person_name: "Chloé Tremblay",
  address_line1: "290 Bremner Blvd",
  city: "Toronto",
  state_code: "ON",
  postal_code: "M5V 3L9",
  country_code: "CA",
  phone_number: "+1 416 555 0199",
};

export const tshirtCustoms = {
  content_type: "merchandise",
  incoterm: "DAP",
  commodities: [
    {
      description: "Cotton T-shirt",
      quantity: 2,
      value_amount: 15,
      value_currency: "USD",
      weight: 0.25,
      weight_unit: "KG",
      hs_code: "610910",
      origin_country: "US",
    },
  ],
};

const parcel = { weight: 2.5, weight_unit: "KG", length: 30, width: 20, height: 15, dimension_unit: "CM" };

export const rateRequest = (extra: Record<string, unknown> = {}) => ({
  shipper: usShipper,
  recipient: usRecipient,
  parcels: [parcel],
  ...extra,
});

export async function addSandbox(
  key: string,
  carrier_id: string,
  config: Record<string, unknown> = {},
  more: Record<string, unknown> = {},
) {
  const res = await call(createConnection, "POST", "/v1/connections", {
    key,
    body: { carrier_name: "sandbox", carrier_id, config, ...more },
  });
  if (res.status !== 201) throw new Error(`connection not created: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; carrier_id: string };
}

export async function createShipmentFor(key: string, extra: Record<string, unknown> = {}) {
  const { POST } = await import("@/app/v1/shipments/route");
  const res = await call(POST, "POST", "/v1/shipments", { key, body: rateRequest(extra) });
  if (res.status !== 201) throw new Error(`shipment not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as {
    id: string;
    rates: { id: string; service: string; carrier_ref: string }[];
    [k: string]: unknown;
  };
}

/** Whether a shipment is claimed for an operation, and whether a purchase attempt is recorded in its meta. */
export async function claimStateOf(id: string): Promise<{ pending: string | null; attempt: boolean }> {
  const { getDb } = await import("@/lib/db/client");
  const { shipments } = await import("@/lib/db/schema");
  const { eq } = await import("drizzle-orm");
  const [row] = await (await getDb()).select().from(shipments).where(eq(shipments.id, id));
  return { pending: row!.pendingOperation, attempt: JSON.stringify(row!.meta).includes("purchase_attempt") };
}

/** The purchase of a shipment's first rate as a batch's row makes it: `paceCarrier` stands in for the batch's budget. */
export async function purchasePaced(
  orgId: string,
  shipment: { id: string; rates: { id: string }[] },
  paceCarrier: NonNullable<import("@/lib/context").DomainContext["paceCarrier"]>,
) {
  const { purchaseShipment } = await import("@/lib/shipments/purchase-shipment");
  const { ShipmentPurchase } = await import("@/lib/schemas/shipment");
  const { orgCtx } = await import("./helpers");
  return purchaseShipment({
    ctx: { ...(await orgCtx(orgId)), paceCarrier },
    id: shipment.id,
    input: ShipmentPurchase.parse({ selected_rate_id: shipment.rates[0]!.id }),
  });
}

export async function purchaseFor(
  key: string,
  shipment: { id: string; rates: { id: string }[] },
  extra: Record<string, unknown> = {},
) {
  const { POST } = await import("@/app/v1/shipments/[id]/purchase/route");
  return call(POST, "POST", `/v1/shipments/${shipment.id}/purchase`, {
    key,
    params: { id: shipment.id },
    body: { selected_rate_id: shipment.rates[0]!.id, ...extra },
  });
}
