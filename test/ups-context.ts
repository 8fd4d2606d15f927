import { createCarrierHttp } from "@/lib/carriers/http/client";
import { withDeadline } from "@/lib/carriers/http/deadline";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import type { AdapterContext, Customs, RateRequest, ShipRequest } from "@/lib/carriers/types";
import { testAddress, testParcel, withShipDate } from "@/test/sandbox-context";

/**
 * Builders for UPS adapter tests: normalized requests (domestic and international) and an AdapterContext whose
 * HTTP client talks to a carrier emulator (or anything else at `baseUrl`).
 */

export const UPS_CREDENTIALS = { client_id: "test-client", client_secret: "test-secret", account_number: "A1B2C3" };

const chicago = testAddress({
  person_name: "Ada Shipper",
  company_name: "Acme Warehouse",
  address_line1: "500 Industrial Way",
  address_line2: null,
  city: "Chicago",
  state_code: "IL",
  postal_code: "60607",
  phone_number: "+1 312 555 0100",
  email: "shipping@acme.example",
});

const austin = testAddress({
  person_name: "Bob Receiver",
  company_name: null,
  address_line1: "12 Elm Street",
  address_line2: "Apt 4",
  city: "Austin",
  state_code: "TX",
  postal_code: "78701",
  residential: true,
  phone_number: null,
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

/** Chicago → Austin (residential), one 2.5 kg parcel of 30×20×15 cm. */
export function upsRateRequest(overrides: Partial<RateRequest> = {}): RateRequest {
  return withShipDate(
    {
      shipper: chicago,
      recipient: austin,
      parcels: [testParcel({ weight: 2.5, length: 30, width: 20, height: 15, dimension_unit: "CM" })],
      options: {},
      services: [],
      ...overrides,
    },
    overrides.ship_date,
  );
}

/** Chicago → London, with a declared value. */
export function upsInternationalRateRequest(overrides: Partial<RateRequest> = {}): RateRequest {
  return upsRateRequest({
    recipient: london,
    parcels: [testParcel({ weight: 1.2, weight_unit: "KG", length: 25, width: 20, height: 10, dimension_unit: "CM" })],
    options: { declared_value: 180 },
    ...overrides,
  });
}

export function upsShipRequest(overrides: Partial<ShipRequest> = {}): ShipRequest {
  const { shipper, recipient, parcels } = upsRateRequest();
  return withShipDate(
    {
      shipper,
      recipient,
      parcels,
      service: "03",
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

export function upsCustoms(overrides: Partial<Customs> = {}): Customs {
  return {
    content_type: "merchandise",
    content_description: null,
    incoterm: "DDP",
    duty: { paid_by: "sender", currency: "USD", account_number: null, declared_value: null },
    invoice: "INV-2024-0042",
    invoice_date: "2024-03-04",
    commercial_invoice: true,
    certify: true,
    signer: "Ada Shipper",
    aes: null,
    eel_pfc: null,
    commodities: [
      {
        description: "Cotton T-shirts, men's, short sleeve",
        quantity: 3,
        value_amount: 20,
        value_currency: "USD",
        weight: 0.2,
        weight_unit: "KG",
        hs_code: "610910",
        origin_country: "US",
        sku: "TS-COT-M",
      },
      {
        description: "Ceramic coffee mug",
        quantity: 2,
        value_amount: 60,
        value_currency: "USD",
        weight: 0.3,
        weight_unit: "KG",
        hs_code: "691200",
        origin_country: "PT",
        sku: null,
      },
    ],
    options: {},
    ...overrides,
  };
}

/** Chicago → London with customs, Worldwide Saver. */
export function upsInternationalShipRequest(overrides: Partial<ShipRequest> = {}): ShipRequest {
  const { recipient, parcels } = upsInternationalRateRequest();
  return upsShipRequest({ recipient, parcels, service: "65", customs: upsCustoms(), ...overrides });
}

export interface UpsContextOptions {
  baseUrl: string;
  tokens?: TokenCache;
  config?: Record<string, unknown>;
  credentials?: Record<string, unknown>;
  now?: () => Date;
  /** The call's deadline (ms); the service's default is far longer, tests keep it short. */
  deadlineMs?: number;
}

/** Runs `op` with a UPS context under a deadline, as invokeCarrier would (without its message mapping). */
export function withUpsContext<T>(opts: UpsContextOptions, op: (ctx: AdapterContext) => Promise<T>): Promise<T> {
  return withDeadline(
    opts.deadlineMs ?? 10_000,
    undefined,
    (signal) =>
      op({
        connection: {
          id: "car_upstest",
          carrier_name: "ups",
          carrier_id: "ups-test",
          test_mode: true,
          config: opts.config ?? {},
          credentials: opts.credentials ?? UPS_CREDENTIALS,
        },
        http: createCarrierHttp({
          carrier_name: "ups",
          carrier_id: "ups-test",
          display_name: "UPS",
          signal,
          baseDelayMs: 10,
        }),
        tokens: opts.tokens ?? new TokenCache(),
        signal,
        now: opts.now ?? (() => new Date()),
        ledger: null,
        baseUrl: opts.baseUrl,
      }),
    "UPS",
  );
}
