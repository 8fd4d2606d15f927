import { createCarrierHttp } from "@/lib/carriers/http/client";
import { withDeadline } from "@/lib/carriers/http/deadline";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import type { AdapterContext, Customs, RateRequest, ShipRequest } from "@/lib/carriers/types";
import { testAddress, testParcel, withShipDate } from "@/test/sandbox-context";

/**
 * Builders for Canada Post adapter tests: normalized requests (within Canada, to the US, abroad with customs) and an
 * AdapterContext whose HTTP client talks to a carrier emulator (or anything else at `baseUrl`).
 */

export const CANADAPOST_CREDENTIALS = {
  api_username: "6e93d53968881714",
  api_password: "0bfa9fcb9853d1f51ee57a",
  customer_number: "2004381",
};
/** A connection with a parcel contract (contract shipments); without config, non-contract shipments. */
export const CANADAPOST_CONTRACT = { contract_id: "42708517", refund_email: "refunds@acme.ca" };

const ottawa = testAddress({
  person_name: "Ada Shipper",
  company_name: "Acme Warehouse",
  address_line1: "2701 Riverside Drive",
  address_line2: null,
  city: "Ottawa",
  state_code: "ON",
  postal_code: "k1a 0b1",
  country_code: "CA",
  phone_number: "+1 613 555 0100",
  email: "shipping@acme.example",
});

const toronto = testAddress({
  person_name: "Bob Receiver",
  company_name: null,
  address_line1: "290 Bremner Blvd",
  address_line2: null,
  city: "Toronto",
  state_code: "ON",
  postal_code: "M5V 3L9",
  country_code: "CA",
  residential: true,
  phone_number: "+1 416 555 0123",
});

const london = testAddress({
  person_name: "Clara Importer",
  company_name: "Importer Ltd",
  address_line1: "10 Downing Street",
  address_line2: null,
  city: "London",
  state_code: "",
  postal_code: "SW1A 2AA",
  country_code: "GB",
  phone_number: "+44 20 7946 0000",
});

/** Ottawa → Toronto, one 2.5 kg parcel of 30×20×15 cm. */
export function canadapostRateRequest(overrides: Partial<RateRequest> = {}): RateRequest {
  return withShipDate(
    {
      shipper: ottawa,
      recipient: toronto,
      parcels: [testParcel({ weight: 2.5, length: 30, width: 20, height: 15, dimension_unit: "CM" })],
      options: {},
      services: [],
      ...overrides,
    },
    overrides.ship_date,
  );
}

export function canadapostShipRequest(overrides: Partial<ShipRequest> = {}): ShipRequest {
  const { shipper, recipient, parcels } = canadapostRateRequest();
  return withShipDate(
    {
      shipper,
      recipient,
      parcels,
      service: "DOM.EP",
      label_type: "PDF",
      reference: "ORDER-1001",
      shipment_key: "shp_0123456789abcdef0123456789abcdef",
      options: {},
      payment: null,
      customs: null,
      ...overrides,
    },
    overrides.ship_date,
  );
}

function canadapostCustoms(overrides: Partial<Customs> = {}): Customs {
  return {
    content_type: "merchandise",
    content_description: null,
    incoterm: "DDU",
    duty: { paid_by: "recipient", currency: "CAD", account_number: null, declared_value: null },
    invoice: "INV-42",
    invoice_date: "2024-03-04",
    commercial_invoice: false,
    certify: true,
    signer: "Ada Shipper",
    aes: null,
    eel_pfc: null,
    commodities: [
      {
        description: "Maple syrup, 500 ml bottles",
        quantity: 3,
        value_amount: 18.5,
        value_currency: "CAD",
        weight: 0.7,
        weight_unit: "KG",
        hs_code: "170220",
        origin_country: "CA",
        sku: "MAPLE-500",
      },
    ],
    options: {},
    ...overrides,
  };
}

/** Ottawa → London with customs, International Parcel Air. */
export function canadapostInternationalShipRequest(overrides: Partial<ShipRequest> = {}): ShipRequest {
  return canadapostShipRequest({
    recipient: london,
    service: "INT.IP.AIR",
    customs: canadapostCustoms(),
    ...overrides,
  });
}

export interface CanadapostContextOptions {
  baseUrl: string;
  config?: Record<string, unknown>;
  credentials?: Record<string, unknown>;
  now?: () => Date;
  deadlineMs?: number;
}

/** Runs `op` with a Canada Post context under a deadline, as invokeCarrier would (without its message mapping). */
export function withCanadapostContext<T>(
  opts: CanadapostContextOptions,
  op: (ctx: AdapterContext) => Promise<T>,
): Promise<T> {
  return withDeadline(
    opts.deadlineMs ?? 10_000,
    undefined,
    (signal) =>
      op({
        connection: {
          id: "car_cptest",
          carrier_name: "canadapost",
          carrier_id: "canadapost-test",
          test_mode: true,
          config: opts.config ?? CANADAPOST_CONTRACT,
          credentials: opts.credentials ?? CANADAPOST_CREDENTIALS,
        },
        http: createCarrierHttp({
          carrier_name: "canadapost",
          carrier_id: "canadapost-test",
          display_name: "Canada Post",
          signal,
          baseDelayMs: 10,
        }),
        tokens: new TokenCache(),
        signal,
        now: opts.now ?? (() => new Date()),
        ledger: null,
        baseUrl: opts.baseUrl,
      }),
    "Canada Post",
  );
}
