import type { DatabaseCircuit } from "./circuit";

/**
 * The open handle's circuit (Postgres only), kept on globalThis: one per process, and proxy.ts, which Next.js
 * bundles apart from the pages and routes, reads the same one. No database module is imported here, so the proxy
 * stays free of drivers.
 */
const g = globalThis as unknown as { __shipwellCircuit?: DatabaseCircuit; __shipwellOpenFailedAt?: number };

// After opening the database failed because it could not be reached (down since the start: there is no circuit
// yet), it counts as down this long; then the next request tries to open it again.
const OPEN_RETRY_MS = 1_000;

export function registerCircuit(circuit: DatabaseCircuit): void {
  g.__shipwellCircuit = circuit;
}

export function unregisterCircuit(circuit: DatabaseCircuit): void {
  if (g.__shipwellCircuit === circuit) g.__shipwellCircuit = undefined;
}

/** Opening the database failed because it could not be reached (null: it opened). */
export function noteOpenFailed(failedAt: number | null): void {
  g.__shipwellOpenFailedAt = failedAt ?? undefined;
}

/**
 * Whether the database is known to be unreachable right now (the circuit is open), without a round trip: for code
 * that cannot see the error itself (better-auth answers its own 500, a page's error boundary) to answer 503 instead.
 */
export function isDatabaseDown(): boolean {
  if (g.__shipwellCircuit?.isOpen) return true;
  const failedAt = g.__shipwellOpenFailedAt;
  return failedAt !== undefined && Date.now() - failedAt < OPEN_RETRY_MS;
}
