/**
 * The carriers' published contracts in the emulator (`npm run bench:contract`). Prints numbers; asserts nothing.
 *
 * Each UPS, FedEx, USPS and DHL Express operation an adapter performs (rates at home and abroad, a domestic label, an international
 * label with its invoice, a void, tracking) runs N times through invokeCarrier against the emulator. It prints, per
 * carrier and operation, how many requests the carrier's schema accepted (n/n) and how many of the emulator's answers
 * it accepted, the time the emulator spent on the checks per call (request and answer, measured inside the emulator:
 * the cost they add), the most one call's checks cost (the first use of an operation compiles its schemas with ajv,
 * once per process),
 * and the whole call's mean time for scale.
 *
 * Env: BENCH_ROUNDS (default 40 per operation).
 */
import { invokeCarrier } from "@/lib/carriers/invoke";
import type { AdapterContext, AdapterMessage, CarrierAdapter, ConnectionInfo } from "@/lib/carriers/types";
import { resetEnvCache } from "@/lib/env";
import { dhlExpressEmulator } from "@/test/emulator/dhl_express";
import { fedexEmulator } from "@/test/emulator/fedex";
import { startEmulator, type Emulator, type Operation } from "@/test/emulator/server";
import { randomUUID } from "node:crypto";
import { upsEmulator } from "@/test/emulator/ups";
import { DHL_CREDENTIALS, dhlDomesticShip, dhlInternationalRate, dhlInternationalShip } from "@/test/dhl-context";
import { uspsEmulator } from "@/test/emulator/usps";
import { FEDEX_CREDENTIALS, fedexDomesticRate, fedexDomesticShip, fedexInternationalShip } from "@/test/fedex-context";
import {
  UPS_CREDENTIALS,
  upsInternationalRateRequest,
  upsInternationalShipRequest,
  upsRateRequest,
  upsShipRequest,
} from "@/test/ups-context";
import {
  USPS_CREDENTIALS,
  uspsInternationalRateRequest,
  uspsInternationalShipRequest,
  uspsRateRequest,
  uspsShipRequest,
} from "@/test/usps-context";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);

type Run = (a: CarrierAdapter, ctx: AdapterContext) => Promise<{ data: unknown; messages: AdapterMessage[] }>;

interface Step {
  name: string;
  capability: "rates" | "ship" | "void" | "track";
  run: (sold: { tracking: string; identifier: string }) => Run;
}

type BenchCarrier = "ups" | "fedex" | "usps" | "dhl_express";
const CREDENTIALS = new Map<BenchCarrier, Record<string, unknown>>([
  ["ups", UPS_CREDENTIALS],
  ["fedex", FEDEX_CREDENTIALS],
  ["usps", USPS_CREDENTIALS],
  ["dhl_express", DHL_CREDENTIALS],
]);

const connection = (carrier: BenchCarrier): ConnectionInfo => ({
  id: `car_bench${carrier}`,
  carrier_name: carrier,
  carrier_id: `${carrier}-bench`,
  test_mode: true,
  config: {},
  credentials: CREDENTIALS.get(carrier)!,
});

// USPS answers a shipment key it has seen with the same label (its idempotency key): each round buys under its own.
const uspsKey = () => `shp_bench_${randomUUID()}`;

const STEPS: Record<BenchCarrier, Step[]> = {
  ups: [
    { name: "rate", capability: "rates", run: () => (a, ctx) => a.rate(ctx, upsRateRequest()) },
    { name: "rate abroad", capability: "rates", run: () => (a, ctx) => a.rate(ctx, upsInternationalRateRequest()) },
    { name: "ship", capability: "ship", run: () => (a, ctx) => a.ship(ctx, upsShipRequest()) },
    { name: "ship abroad", capability: "ship", run: () => (a, ctx) => a.ship(ctx, upsInternationalShipRequest()) },
    { name: "track", capability: "track", run: (s) => (a, ctx) => a.track(ctx, s.tracking) },
    {
      name: "void",
      capability: "void",
      run: (s) => (a, ctx) => a.void!(ctx, { shipment_identifier: s.identifier, tracking_number: s.tracking }),
    },
  ],
  fedex: [
    { name: "rate", capability: "rates", run: () => (a, ctx) => a.rate(ctx, fedexDomesticRate()) },
    { name: "ship", capability: "ship", run: () => (a, ctx) => a.ship(ctx, fedexDomesticShip()) },
    { name: "ship abroad", capability: "ship", run: () => (a, ctx) => a.ship(ctx, fedexInternationalShip()) },
    { name: "track", capability: "track", run: (s) => (a, ctx) => a.track(ctx, s.tracking) },
    {
      name: "void",
      capability: "void",
      run: (s) => (a, ctx) => a.void!(ctx, { shipment_identifier: s.identifier, tracking_number: s.tracking }),
    },
  ],
  usps: [
    { name: "rate", capability: "rates", run: () => (a, ctx) => a.rate(ctx, uspsRateRequest()) },
    { name: "rate abroad", capability: "rates", run: () => (a, ctx) => a.rate(ctx, uspsInternationalRateRequest()) },
    {
      name: "ship",
      capability: "ship",
      run: () => (a, ctx) => a.ship(ctx, uspsShipRequest({ shipment_key: uspsKey() })),
    },
    {
      name: "ship abroad",
      capability: "ship",
      run: () => (a, ctx) => a.ship(ctx, uspsInternationalShipRequest({ shipment_key: uspsKey() })),
    },
    { name: "track", capability: "track", run: (s) => (a, ctx) => a.track(ctx, s.tracking) },
    {
      name: "void",
      capability: "void",
      run: (s) => (a, ctx) => a.void!(ctx, { shipment_identifier: s.identifier, tracking_number: s.tracking }),
    },
  ],
  // MyDHL has no void.
  dhl_express: [
    { name: "rate abroad", capability: "rates", run: () => (a, ctx) => a.rate(ctx, dhlInternationalRate()) },
    { name: "ship", capability: "ship", run: () => (a, ctx) => a.ship(ctx, dhlDomesticShip()) },
    { name: "ship abroad", capability: "ship", run: () => (a, ctx) => a.ship(ctx, dhlInternationalShip()) },
    { name: "track", capability: "track", run: (s) => (a, ctx) => a.track(ctx, s.tracking) },
  ],
};

interface Measured {
  /** The emulator's calls of the step's own operation, oldest first. */
  calls: { status: number; contractMs: number }[];
  refused: number;
  brokenAnswers: number;
  meanCallMs: number;
}

async function measure(carrier: BenchCarrier, step: Step, emulator: Emulator): Promise<Measured> {
  const conn = connection(carrier);
  const operation: Operation = step.capability === "rates" ? "rate" : step.capability;
  const own: Measured["calls"] = [];
  const times: number[] = [];
  for (let i = 0; i <= ROUNDS; i++) {
    // A fresh label for every round of void and track: each voids or tracks its own.
    let sold = { tracking: "", identifier: "" };
    if (step.capability === "void" || step.capability === "track") {
      const bought = await invokeCarrier(conn, "ship", undefined, STEPS[carrier][2]!.run(sold));
      if (!bought.ok) throw new Error(`${carrier}: could not buy a label to ${step.name}`);
      const data = bought.data as { tracking_number: string; shipment_identifier: string };
      sold = { tracking: data.tracking_number, identifier: data.shipment_identifier };
    }
    const before = emulator.calls.length;
    const started = performance.now();
    const outcome = await invokeCarrier(conn, step.capability, undefined, step.run(sold));
    if (i > 0) times.push(performance.now() - started);
    if (!outcome.ok) throw new Error(`${carrier} ${step.name}: ${JSON.stringify(outcome.messages)}`);
    own.push(...emulator.calls.slice(before).filter((c) => c.operation === operation));
  }
  const violations = emulator.takeViolations().filter((v) => v.operation === operation);
  emulator.reset();
  return {
    calls: own,
    refused: violations.filter((v) => v.kind === "request").length,
    brokenAnswers: violations.filter((v) => v.kind === "answer").length,
    meanCallMs: times.reduce((s, t) => s + t, 0) / times.length,
  };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main() {
  const emulator = await startEmulator([upsEmulator, fedexEmulator, uspsEmulator, dhlExpressEmulator]);
  process.env.CARRIER_EMULATOR_URL = emulator.url;
  resetEnvCache();
  console.log(`Contract checks in the emulator: ${ROUNDS} rounds per operation after a first one, one process\n`);
  const header = [
    "carrier",
    "operation",
    "requests valid",
    "answers valid",
    "check ms p50",
    "p95",
    "max (first use compiles)",
    "call ms mean",
  ];
  console.log(header.join(" | "));
  try {
    for (const carrier of ["ups", "fedex", "usps", "dhl_express"] as const) {
      for (const step of STEPS[carrier]) {
        const m = await measure(carrier, step, emulator);
        const warm = m.calls
          .slice(1)
          .map((c) => c.contractMs)
          .sort((a, b) => a - b);
        const n = m.calls.length;
        console.log(
          [
            carrier,
            step.name,
            `${n - m.refused}/${n}`,
            `${n - m.brokenAnswers}/${n}`,
            quantile(warm, 0.5).toFixed(2),
            quantile(warm, 0.95).toFixed(2),
            Math.max(...m.calls.map((c) => c.contractMs)).toFixed(0),
            m.meanCallMs.toFixed(1),
          ].join(" | "),
        );
      }
    }
  } finally {
    await emulator.close();
  }
}

void main();
