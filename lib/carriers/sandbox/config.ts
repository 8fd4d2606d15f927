import { z } from "zod";
import { sandboxRefusal } from "@/lib/carriers/sandbox/errors";

/**
 * Connection `config` keys of the sandbox carrier. They let a demo or a test make the sandbox behave like a slow,
 * flaky or throttling carrier, and set how fast simulated parcels travel.
 *
 * | key                      | default | meaning |
 * |--------------------------|---------|---------|
 * | `latency_ms`             | 0       | delay before every answer (0–30000); aborted promptly with the call's signal |
 * | `failure_rate`           | 0       | fraction (0–1) of calls that fail with `carrier_unavailable` |
 * | `fail_operations`        | []      | operations ("rates", "ship", "void", "track", "lookup") that always fail with `carrier_unavailable` |
 * | `lost_answers`           | []      | "ship" and/or "void": the sandbox does the operation (sells, voids), then never answers (the call's deadline ends it: `carrier_timeout`) |
 * | `rate_limit_every`       | off     | every Nth call of the connection answers `carrier_rate_limited` (details `retry_after_seconds`) |
 * | `pace`                   | 360     | simulated minutes of the parcel's journey per real minute (1 = real time; see events.ts) |
 * | `fuel_surcharge_percent` | 8.5     | fuel surcharge on the base charge, in percent (0–100) |
 */

const SANDBOX_OPERATIONS = ["rates", "ship", "void", "track", "lookup"] as const;
export type SandboxOperation = (typeof SANDBOX_OPERATIONS)[number];
// Operations that change the carrier's books, so their answer can be lost after the change happened.
const WRITES = ["ship", "void"] as const;
type SandboxWrite = (typeof WRITES)[number];

const shape = {
  latency_ms: z.number().int().min(0).max(30_000).optional(),
  failure_rate: z.number().min(0).max(1).optional(),
  fail_operations: z.array(z.enum(SANDBOX_OPERATIONS)).max(SANDBOX_OPERATIONS.length).optional(),
  lost_answers: z.array(z.enum(WRITES)).max(WRITES.length).optional(),
  rate_limit_every: z.number().int().min(1).max(1_000_000).optional(),
  pace: z.number().min(0.01).max(10_000).optional(),
  fuel_surcharge_percent: z.number().min(0).max(100).optional(),
};

/** Validates a connection's sandbox keys; unknown keys are refused so a typo does not silently do nothing. */
export const sandboxConfigSchema = z.strictObject(shape);

// At call time the connection's config also holds the layer's common keys (deadline_ms, …): ignore them.
const runtimeSchema = z.object(shape);

const SANDBOX_CONFIG_DEFAULTS = {
  latency_ms: 0,
  failure_rate: 0,
  fail_operations: [] as SandboxOperation[],
  lost_answers: [] as SandboxWrite[],
  rate_limit_every: null as number | null,
  /** A domestic journey is ~55 simulated hours: at 360 it plays out in about 9 real minutes, international in ~14. */
  pace: 360,
  fuel_surcharge_percent: 8.5,
} as const;

export interface SandboxConfig {
  latencyMs: number;
  failureRate: number;
  failOperations: ReadonlySet<SandboxOperation>;
  lostAnswers: ReadonlySet<SandboxWrite>;
  rateLimitEvery: number | null;
  pace: number;
  fuelSurchargePercent: number;
}

// A connection's config object is read on every call and never changes (an update stores a new one): parse it once.
const parsedConfigs = new WeakMap<Record<string, unknown>, SandboxConfig>();

export function readSandboxConfig(raw: Record<string, unknown>): SandboxConfig {
  const known = parsedConfigs.get(raw);
  if (known) return known;
  const parsed = runtimeSchema.safeParse(raw);
  if (!parsed.success) {
    // Stored config was validated on write; reaching this means it was edited behind the API's back.
    throw sandboxRefusal("SBX_INVALID_CONFIG", "The sandbox connection's configuration is invalid.", {
      issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  }
  const c = parsed.data;
  const d = SANDBOX_CONFIG_DEFAULTS;
  const config: SandboxConfig = {
    latencyMs: c.latency_ms ?? d.latency_ms,
    failureRate: c.failure_rate ?? d.failure_rate,
    failOperations: new Set(c.fail_operations ?? d.fail_operations),
    lostAnswers: new Set(c.lost_answers ?? d.lost_answers),
    rateLimitEvery: c.rate_limit_every ?? d.rate_limit_every,
    pace: c.pace ?? d.pace,
    fuelSurchargePercent: c.fuel_surcharge_percent ?? d.fuel_surcharge_percent,
  };
  parsedConfigs.set(raw, config);
  return config;
}
