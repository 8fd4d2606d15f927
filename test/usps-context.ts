import { createCarrierHttp } from "@/lib/carriers/http/client";
import { withDeadline } from "@/lib/carriers/http/deadline";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import type { AdapterContext, RateRequest, ShipRequest } from "@/lib/carriers/types";
import { upsCustoms } from "@/test/ups-context";
import { testAddress, testParcel, withShipDate } from "@/test/sandbox-context";

/**
 * Builders for USPS adapter tests: normalized requests (domestic and international) and an AdapterContext whose HTTP
 * client talks to a carrier emulator (or anything else at `baseUrl`).
 */

export const USPS_CREDENTIALS = {
  client_id: "test-client",
  client_secret: "test-secret",
  crid: "56982563",
  mid: "900000001",
  manifest_mid: "900000002",
  account_type: "EPS",
  account_number: "1000012345",
};

const georgetown = testAddress({
  person_name: "Ada Shipper",
  company_name: "Acme Warehouse",
  address_line1: "1098 N Fraser St",
  address_line2: null,
  city: "Georgetown",
  state_code: "SC",
  postal_code: "29440",
  phone_number: "+1 843 555 0100",
  email: "shipping@acme.example",
});

const oklahomaCity = testAddress({
  person_name: "Lina Smith",
  company_name: null,
  address_line1: "1309 S Agnew Ave",
  address_line2: "Apt 303",
  city: "Oklahoma City",
  state_code: "OK",
  postal_code: "73108-1234",
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

/** Georgetown SC → Oklahoma City, one 4.1 lb parcel of 12×8×6 in. */
export function uspsRateRequest(overrides: Partial<RateRequest> = {}): RateRequest {
  return withShipDate(
    {
      shipper: georgetown,
      recipient: oklahomaCity,
      parcels: [testParcel({ weight: 4.1, weight_unit: "LB", length: 12, width: 8, height: 6, dimension_unit: "IN" })],
      options: {},
      services: [],
      ...overrides,
    },
    overrides.ship_date,
  );
}

/** Georgetown SC → London, 1.2 kg. */
export function uspsInternationalRateRequest(overrides: Partial<RateRequest> = {}): RateRequest {
  return uspsRateRequest({
    recipient: london,
    parcels: [testParcel({ weight: 1.2, weight_unit: "KG", length: 25, width: 20, height: 10, dimension_unit: "CM" })],
    ...overrides,
  });
}

export function uspsShipRequest(overrides: Partial<ShipRequest> = {}): ShipRequest {
  const { shipper, recipient, parcels } = uspsRateRequest();
  return withShipDate(
    {
      shipper,
      recipient,
      parcels,
      service: "PRIORITY_MAIL",
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

/** Georgetown SC → London with customs, Priority Mail International. */
export function uspsInternationalShipRequest(overrides: Partial<ShipRequest> = {}): ShipRequest {
  const { recipient, parcels } = uspsInternationalRateRequest();
  return uspsShipRequest({
    recipient,
    parcels,
    service: "PRIORITY_MAIL_INTERNATIONAL",
    customs: upsCustoms(),
    ...overrides,
  });
}

export interface UspsContextOptions {
  baseUrl: string;
  tokens?: TokenCache;
  config?: Record<string, unknown>;
  credentials?: Record<string, unknown>;
  now?: () => Date;
  deadlineMs?: number;
}

/** Runs `op` with a USPS context under a deadline, as invokeCarrier would (without its message mapping). */
export function withUspsContext<T>(opts: UspsContextOptions, op: (ctx: AdapterContext) => Promise<T>): Promise<T> {
  return withDeadline(
    opts.deadlineMs ?? 10_000,
    undefined,
    (signal) =>
      op({
        connection: {
          id: "car_uspstest",
          carrier_name: "usps",
          carrier_id: "usps-test",
          test_mode: true,
          config: opts.config ?? {},
          credentials: opts.credentials ?? USPS_CREDENTIALS,
        },
        http: createCarrierHttp({
          carrier_name: "usps",
          carrier_id: "usps-test",
          display_name: "USPS",
          signal,
          baseDelayMs: 10,
        }),
        tokens: opts.tokens ?? new TokenCache(),
        signal,
        now: opts.now ?? (() => new Date()),
        ledger: null,
        baseUrl: opts.baseUrl,
      }),
    "USPS",
  );
}
