import type { APIRequestContext } from "@playwright/test";
import { expect } from "./fixtures";

/** The warehouse the browser tests ship from. */
export const SHIPPER = {
  address_line1: "500 Industrial Way",
  city: "Chicago",
  state_code: "IL",
  postal_code: "60607",
  country_code: "US",
};

/** A domestic recipient, in Austin. */
export const RECIPIENT = {
  person_name: "Rita Recipient",
  address_line1: "12 Elm St",
  city: "Austin",
  state_code: "TX",
  postal_code: "78701",
  country_code: "US",
};

/** A shipment as POST /v1/shipments and its purchase answer it, as far as the browser tests read it. */
export interface ApiShipment {
  id: string;
  status: string;
  tracking_number: string;
  tracker_id: string;
  rates: { id: string }[];
}

/**
 * A shipment made through the API as an integration makes one: from SHIPPER to RECIPIENT, one parcel, on the
 * organization's sandbox, each of these overridden by `data` (a recipient, `carrier_ids`, `customs`, `label_type`,
 * `reference`); then bought with its first rate, unless `buy` is false (a draft, priced and not bought).
 */
export async function shipmentThroughApi(
  api: APIRequestContext,
  data: Record<string, unknown>,
  { buy = true }: { buy?: boolean } = {},
): Promise<ApiShipment> {
  const created = await api.post("/v1/shipments", {
    data: {
      shipper: SHIPPER,
      recipient: RECIPIENT,
      parcels: [{ weight: 1.2, weight_unit: "KG" }],
      carrier_ids: ["sandbox"],
      ...data,
    },
  });
  expect(created.status()).toBe(201);
  const draft = (await created.json()) as ApiShipment;
  if (!buy) return draft;
  const bought = await api.post(`/v1/shipments/${draft.id}/purchase`, {
    data: { selected_rate_id: draft.rates[0]!.id },
  });
  expect(bought.status()).toBe(200);
  return ((await bought.json()) as { shipment: ApiShipment }).shipment;
}

/** A sandbox connection of the test's own (a `config` such as a fast `pace`), named `carrierId`. */
export async function sandboxConnection(api: APIRequestContext, carrierId: string, config?: Record<string, unknown>) {
  const made = await api.post("/v1/connections", {
    data: { carrier_name: "sandbox", carrier_id: carrierId, ...(config ? { config } : {}) },
  });
  expect(made.status()).toBe(201);
}
