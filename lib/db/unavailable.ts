// Reaching the database failed: nothing answered, no route, no name, the attempt timed out (or a check on a connection
// of its own got no answer in time: stall-watch.ts), or Postgres refused new connections while it starts up or shuts
// down. The circuit (circuit.ts) opens on these.
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECT_TIMEOUT",
  "CHECK_TIMEOUT",
  "57P03",
  "08001",
  "08004",
]);

// Those, the circuit's own refusal, and a connection lost or refused mid-way (postgres.js's codes and the
// server-side ones Postgres uses while shutting down or when it is full): answered 503 `unavailable`.
const DB_DOWN_CODES = new Set([
  ...UNREACHABLE_CODES,
  "DATABASE_DOWN",
  "ECONNRESET",
  "EPIPE",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01",
  "57P02",
  "08000",
  "08003",
  "08006",
  "53300",
]);

const CIRCUIT_CODES = new Set(["DATABASE_DOWN"]);

function hasCode(err: unknown, codes: Set<string>): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && codes.has(code)) return true;
  }
  return false;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  return hasCode(err, DB_DOWN_CODES);
}

/** The database could not be reached at all (not a live connection lost): what opens the circuit. */
export function isDatabaseUnreachable(err: unknown): boolean {
  return hasCode(err, UNREACHABLE_CODES);
}

/** The circuit refused the query without trying (circuit.ts): the outage is already logged once, by the circuit. */
export function isCircuitRefusal(err: unknown): boolean {
  return hasCode(err, CIRCUIT_CODES);
}
