import { sampleNewYorkAddress } from "@/test/label-samples";
import type { CarrierHttp } from "@/lib/carriers/http/client";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import type {
  Address,
  AdapterContext,
  CarrierLedger,
  FoundShipment,
  Parcel,
  RateRequest,
  ShipDate,
  ShipRequest,
} from "@/lib/carriers/types";
import { originTimeZone } from "@/lib/carriers/ship-date";

/**
 * Builders for sandbox tests (and anyone driving the sandbox by hand, e.g. a script or a docs example).
 * The sandbox never touches the network, so the HTTP client is one that fails loudly if used.
 */

const noNetwork: CarrierHttp = {
  request() {
    throw new Error("the sandbox carrier must not use the network");
  },
};

export interface TestContextOptions {
  config?: Record<string, unknown>;
  credentials?: Record<string, unknown>;
  now?: Date | (() => Date);
  signal?: AbortSignal;
  tokens?: TokenCache;
  connectionId?: string;
  /** The sandbox's books; a fresh in-memory one per context unless shared. */
  ledger?: CarrierLedger;
}

/** The sandbox's books in memory, for adapter tests (the service lends a database-backed one: carrier-ledger.ts). */
export function memoryLedger(): CarrierLedger & { sales: Map<string, FoundShipment & { voided_at: Date | null }> } {
  const sales = new Map<string, FoundShipment & { voided_at: Date | null }>();
  return {
    sales,
    async recordSale(sale) {
      if (sales.has(sale.tracking_number)) return false;
      sales.set(sale.tracking_number, { ...sale, voided_at: null });
      return true;
    },
    async findSale(trackingNumber) {
      const sale = sales.get(trackingNumber);
      return sale ? { sold_at: sale.sold_at, voided_at: sale.voided_at } : null;
    },
    async recordVoid(trackingNumber, at) {
      const sale = sales.get(trackingNumber);
      if (!sale) return null;
      sale.voided_at ??= at;
      return sale.voided_at;
    },
    async liveSales(reference, since) {
      return [...sales.values()]
        .filter((s) => s.reference === reference && s.sold_at >= since && !s.voided_at)
        .sort((a, b) => a.sold_at.getTime() - b.sold_at.getTime())
        .map(({ voided_at: _voided, ...sale }) => sale);
    },
  };
}

let connections = 0;

export function sandboxTestContext(opts: TestContextOptions = {}): AdapterContext {
  const now = opts.now ?? new Date("2024-03-04T15:00:00Z");
  return {
    connection: {
      // A fresh id per context keeps rate-limit counters of different tests apart.
      id: opts.connectionId ?? `car_test${++connections}`,
      carrier_name: "sandbox",
      carrier_id: "sandbox",
      test_mode: true,
      config: opts.config ?? {},
      credentials: opts.credentials ?? {},
    },
    http: noNetwork,
    tokens: opts.tokens ?? new TokenCache(),
    signal: opts.signal ?? new AbortController().signal,
    now: typeof now === "function" ? now : () => now,
    ledger: opts.ledger ?? memoryLedger(),
    baseUrl: "",
  };
}

/** A New York address: the sandbox's default route. */
export const testAddress = sampleNewYorkAddress;

export function testParcel(overrides: Partial<Parcel> = {}): Parcel {
  return {
    weight: 2,
    weight_unit: "KG",
    width: null,
    height: null,
    length: null,
    dimension_unit: null,
    packaging_type: null,
    package_preset: null,
    description: null,
    content: null,
    is_document: false,
    ...overrides,
  };
}

/** A request's ship date when a test names none: the first day the parcel can leave, on the shipper's calendar. */
export function withShipDate<R extends { shipper: Address }>(req: R, given?: ShipDate): R & { ship_date: ShipDate } {
  return { ...req, ship_date: given ?? { date: null, time_zone: originTimeZone(req.shipper) } };
}

/** New York, NY 10118 → Los Angeles, CA 90012 (zone 9), one 2 kg parcel. */
export function testRateRequest(overrides: Partial<RateRequest> = {}): RateRequest {
  return withShipDate(
    {
      shipper: testAddress(),
      recipient: testAddress({
        person_name: "John Smith",
        address_line1: "200 N Spring St",
        city: "Los Angeles",
        postal_code: "90012",
        state_code: "CA",
      }),
      parcels: [testParcel()],
      options: {},
      services: [],
      ...overrides,
    },
    overrides.ship_date,
  );
}

export function testShipRequest(overrides: Partial<ShipRequest> = {}): ShipRequest {
  const { shipper, recipient, parcels } = testRateRequest();
  return withShipDate(
    {
      shipper,
      recipient,
      parcels,
      service: "SBX_GROUND",
      label_type: "PDF",
      reference: "ORDER-1",
      shipment_key: "shp_" + "0".repeat(32),
      options: {},
      payment: null,
      customs: null,
      ...overrides,
    },
    overrides.ship_date,
  );
}
