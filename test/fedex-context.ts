import { gzipSync } from "node:zlib";
import type { CarrierHttp, CarrierRequest, CarrierResponse } from "@/lib/carriers/http/client";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import type { AdapterContext, Customs, RateRequest, ShipRequest } from "@/lib/carriers/types";
import { sampleAddress } from "@/test/label-samples";
import { testParcel, withShipDate } from "@/test/sandbox-context";

/**
 * Builders for FedEx adapter tests: normalized shipments (domestic and international with customs), an adapter
 * context, and an HTTP client that answers recorded FedEx payloads and remembers what it was sent.
 */

export const FEDEX_CREDENTIALS = {
  api_key: "l7xx1234test5678key",
  secret_key: "s3cr3t-test",
  account_number: "740561073",
};

/** Chicago, IL → Austin, TX (a home), one 5 lb box of 10 × 8 × 4 in. */
export function fedexDomesticRate(overrides: Partial<RateRequest> = {}): RateRequest {
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
        phone_number: "+1 (312) 555-0100",
      }),
      recipient: sampleAddress({
        person_name: "Bob Receiver",
        company_name: null,
        address_line1: "12 Elm Street",
        address_line2: "Apt 4",
        city: "Austin",
        state_code: "TX",
        postal_code: "78701",
        residential: true,
        phone_number: null,
      }),
      parcels: [testParcel({ weight: 5, weight_unit: "LB", length: 10, width: 8, height: 4, dimension_unit: "IN" })],
      options: {},
      services: [],
      ...overrides,
    },
    overrides.ship_date,
  );
}

/** Chicago, IL → London (a business), one 2.5 kg box of 30 × 20 × 15.5 cm. */
export function fedexInternationalRate(overrides: Partial<RateRequest> = {}): RateRequest {
  return fedexDomesticRate({
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
    ...overrides,
  });
}

export function fedexCustoms(overrides: Partial<Customs> = {}): Customs {
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
    eel_pfc: "NOEEI 30.37(a)",
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

export function fedexDomesticShip(overrides: Partial<ShipRequest> = {}): ShipRequest {
  const { shipper, recipient, parcels } = fedexDomesticRate();
  return withShipDate(
    {
      shipper,
      recipient,
      parcels,
      service: "FEDEX_2_DAY",
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

export function fedexInternationalShip(overrides: Partial<ShipRequest> = {}): ShipRequest {
  const { shipper, recipient, parcels } = fedexInternationalRate();
  return fedexDomesticShip({
    shipper,
    recipient,
    parcels,
    service: "FEDEX_INTERNATIONAL_PRIORITY",
    reference: "ORDER-2002",
    customs: fedexCustoms(),
    ...overrides,
  });
}

export interface Recorded {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Send the body gzip-compressed, as FedEx may. */
  gzip?: boolean;
}

function response(r: Recorded): CarrierResponse {
  const text = typeof r.body === "string" ? r.body : JSON.stringify(r.body);
  const raw = new TextEncoder().encode(text);
  const body = r.gzip ? new Uint8Array(gzipSync(raw)) : raw;
  return {
    status: r.status,
    headers: new Headers({
      "content-type": "application/json",
      ...(r.gzip ? { "content-encoding": "gzip" } : {}),
      ...r.headers,
    }),
    body,
    text: () => new TextDecoder().decode(body),
    json: <T>() => JSON.parse(new TextDecoder().decode(body)) as T,
  };
}

/**
 * An HTTP client that answers the token endpoint with a fresh token and every other call from `answer`. `requests`
 * holds what the adapter sent, token calls included.
 */
export function recordedFedex(answer: (req: CarrierRequest) => Recorded): CarrierHttp & { requests: CarrierRequest[] } {
  const requests: CarrierRequest[] = [];
  let tokens = 0;
  return {
    requests,
    async request(req) {
      requests.push(req);
      if (req.url.endsWith("/oauth/token")) {
        return response({
          status: 200,
          body: { access_token: `token-${++tokens}`, token_type: "bearer", expires_in: 3599, scope: "CXS-TP" },
        });
      }
      return response(answer(req));
    },
  };
}

export function fedexContext(
  http: CarrierHttp,
  opts: {
    now?: Date;
    config?: Record<string, unknown>;
    credentials?: Record<string, unknown>;
    tokens?: TokenCache;
  } = {},
): AdapterContext {
  const now = opts.now ?? new Date("2024-03-04T15:00:00Z");
  return {
    connection: {
      id: "car_fedextest",
      carrier_name: "fedex",
      carrier_id: "fedex",
      test_mode: true,
      config: opts.config ?? {},
      credentials: opts.credentials ?? FEDEX_CREDENTIALS,
    },
    http,
    tokens: opts.tokens ?? new TokenCache(),
    signal: new AbortController().signal,
    now: () => now,
    ledger: null,
    baseUrl: "https://apis-sandbox.fedex.com",
  };
}
