import type { CarrierHttp, CarrierRequest, CarrierResponse } from "@/lib/carriers/http/client";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import type { AdapterContext, Customs, RateRequest, ShipRequest } from "@/lib/carriers/types";
import { sampleAddress } from "@/test/label-samples";
import { testParcel, withShipDate } from "@/test/sandbox-context";

/**
 * Builders for DHL Express adapter tests: normalized shipments (within Germany, and Chicago → London with customs),
 * an adapter context, and an HTTP client that answers recorded MyDHL payloads and remembers what it was sent.
 */

export const DHL_CREDENTIALS = { username: "apiS3cretUser", password: "pa55-test", account_number: "123456789" };

/** Chicago, IL → London (a business), one 2.5 kg box of 30 × 20 × 15.5 cm. */
export function dhlInternationalRate(overrides: Partial<RateRequest> = {}): RateRequest {
  return withShipDate(
    {
      shipper: sampleAddress({
        person_name: "Ada Shipper",
        company_name: "Acme Warehouse",
        address_line1: "500 Industrial Way",
        address_line2: null,
        city: "Chicago",
        state_code: "IL",
        postal_code: "60607",
        phone_number: "+1 312 555 0100",
      }),
      recipient: sampleAddress({
        person_name: "Clara Buyer",
        company_name: "Tea & Co Ltd",
        address_line1: "10 Downing Street",
        address_line2: null,
        city: "London",
        state_code: "",
        postal_code: "SW1A 2AA",
        country_code: "GB",
        phone_number: "+44 20 7946 0958",
        email: "clara@example.co.uk",
      }),
      parcels: [
        testParcel({ weight: 2.5, weight_unit: "KG", length: 30, width: 20, height: 15.5, dimension_unit: "CM" }),
      ],
      options: { declared_value: 120, currency: "USD" },
      services: [],
      ...overrides,
    },
    overrides.ship_date,
  );
}

/** Berlin → Munich, one 1 kg parcel. */
export function dhlDomesticRate(overrides: Partial<RateRequest> = {}): RateRequest {
  return dhlInternationalRate({
    shipper: sampleAddress({
      person_name: "Berta Versand",
      company_name: null,
      address_line1: "Friedrichstraße 10",
      address_line2: null,
      city: "Berlin",
      state_code: "",
      postal_code: "10117",
      country_code: "DE",
      phone_number: "+49 30 1234567",
    }),
    recipient: sampleAddress({
      person_name: "Max Empfänger",
      company_name: null,
      address_line1: "Marienplatz 1",
      address_line2: null,
      city: "München",
      state_code: "",
      postal_code: "80331",
      country_code: "DE",
      phone_number: null,
    }),
    parcels: [testParcel({ weight: 1, weight_unit: "KG", length: 20, width: 15, height: 10, dimension_unit: "CM" })],
    options: {},
    ...overrides,
  });
}

export function dhlCustoms(overrides: Partial<Customs> = {}): Customs {
  return {
    content_type: "merchandise",
    content_description: null,
    incoterm: "DAP",
    duty: { paid_by: "recipient", currency: "USD", account_number: null, declared_value: null },
    invoice: "INV-2024-0042",
    invoice_date: "2024-03-04",
    commercial_invoice: true,
    certify: true,
    signer: "Ada Shipper",
    aes: null,
    eel_pfc: null,
    commodities: [
      {
        description: "Loose leaf green tea",
        quantity: 4,
        value_amount: 12.5,
        value_currency: "USD",
        weight: 0.25,
        weight_unit: "KG",
        hs_code: "090210",
        origin_country: "CN",
        sku: "TEA-GRN-250",
      },
      {
        description: "Ceramic teapot",
        quantity: 1,
        value_amount: 70,
        value_currency: "USD",
        weight: 1.2,
        weight_unit: "KG",
        hs_code: "691200",
        origin_country: "US",
        sku: null,
      },
    ],
    options: {},
    ...overrides,
  };
}

export function dhlInternationalShip(overrides: Partial<ShipRequest> = {}): ShipRequest {
  const { shipper, recipient, parcels } = dhlInternationalRate();
  return withShipDate(
    {
      shipper,
      recipient,
      parcels,
      service: "P",
      label_type: "PDF",
      reference: "ORDER-2002",
      shipment_key: "shp_0123456789abcdef0123456789abcdef",
      options: {},
      payment: null,
      customs: dhlCustoms(),
      ...overrides,
    },
    overrides.ship_date,
  );
}

export function dhlDomesticShip(overrides: Partial<ShipRequest> = {}): ShipRequest {
  const { shipper, recipient, parcels } = dhlDomesticRate();
  return dhlInternationalShip({ shipper, recipient, parcels, service: "N", customs: null, ...overrides });
}

export interface Recorded {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

function response(r: Recorded): CarrierResponse {
  const body = new TextEncoder().encode(typeof r.body === "string" ? r.body : JSON.stringify(r.body));
  return {
    status: r.status,
    headers: new Headers({ "content-type": "application/json", ...r.headers }),
    body,
    text: () => new TextDecoder().decode(body),
    json: <T>() => JSON.parse(new TextDecoder().decode(body)) as T,
  };
}

/** An HTTP client that answers every call from `answer`; `requests` holds what the adapter sent. */
export function recordedDhl(answer: (req: CarrierRequest) => Recorded): CarrierHttp & { requests: CarrierRequest[] } {
  const requests: CarrierRequest[] = [];
  return {
    requests,
    async request(req) {
      requests.push(req);
      return response(answer(req));
    },
  };
}

export function dhlContext(
  http: CarrierHttp,
  opts: { now?: Date; config?: Record<string, unknown>; credentials?: Record<string, unknown> } = {},
): AdapterContext {
  const now = opts.now ?? new Date("2024-03-04T15:00:00Z");
  return {
    connection: {
      id: "car_dhltest",
      carrier_name: "dhl_express",
      carrier_id: "dhl",
      test_mode: true,
      config: opts.config ?? {},
      credentials: opts.credentials ?? DHL_CREDENTIALS,
    },
    http,
    tokens: new TokenCache(),
    signal: new AbortController().signal,
    now: () => now,
    ledger: null,
    baseUrl: "https://express.api.dhl.com/mydhlapi/test",
  };
}
