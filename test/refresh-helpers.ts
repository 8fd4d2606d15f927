import { vi } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { sendLogsTo } from "@/lib/log";
import { newId } from "@/lib/db/ids";
import { carrierConnections, trackers } from "@/lib/db/schema";
import { makeTrackingNumber } from "@/lib/carriers/sandbox/tracking-number";

/** Sandbox numbers bought `hoursAgo` in the past (distinct serials), with the scenario digit given. */
export function sandboxNumbers(count: number, hoursAgo: number, scenario = 0): string[] {
  const base = Date.now() - hoursAgo * 3_600_000;
  return Array.from({ length: count }, (_, i) =>
    makeTrackingNumber({ purchasedAt: new Date(base - Math.floor(i / 1000) * 1000), scenario, serial: i % 1000 }),
  );
}

/** Stored trackers due now on the connection, as the purchase or create flow would leave them. */
export async function seedDueTrackers(
  orgId: string,
  connectionId: string,
  numbers: string[],
  extra: Partial<typeof trackers.$inferInsert> = {},
) {
  const db = await getDb();
  const [conn] = await db.select().from(carrierConnections).where(eq(carrierConnections.id, connectionId));
  const rows = numbers.map((n) => ({
    id: newId("tracker"),
    orgId,
    carrierName: conn!.carrierName,
    carrierId: conn!.carrierId,
    carrierConnectionId: connectionId,
    trackingNumber: n,
    status: "pending" as const,
    testMode: true,
    nextRefreshAt: new Date(Date.now() - 1000),
    ...extra,
  }));
  await db.insert(trackers).values(rows);
  return rows.map((r) => r.id);
}

export async function trackerRows(ids: string[]) {
  const db = await getDb();
  return db.select().from(trackers).where(inArray(trackers.id, ids));
}

/**
 * Time as an input: the round's waits (pacer, carrier latency and deadlines, Retry-After pauses) run on fake timers,
 * and whenever the work has had a turn of the event loop for its database I/O, the clock moves on 10 ms. Small steps,
 * not jumps to the next timer: postgres.js keeps long timers of its own (connect and idle timeouts) that a jump
 * would fire.
 */
export function fakeTime() {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
}
/**
 * Opens the pool's connections while timers are real: a connection opened under fake timers races postgres.js's
 * connect timeout against a clock the test moves faster than the server answers.
 */
export async function warmPool(db: Awaited<ReturnType<typeof getDb>>) {
  await Promise.all(Array.from({ length: 10 }, () => db.execute(sql`select 1`)));
}
export async function untilSettled<T>(work: Promise<T>): Promise<T> {
  let done = false;
  work.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    if (!done) await vi.advanceTimersByTimeAsync(10);
  }
  return work;
}

/** Collects what is logged from now on (at info and above) until `restore()`, which makes logging silent again. */
export function captureLogs() {
  const lines: Record<string, unknown>[] = [];
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = "info";
  resetEnvCache();
  sendLogsTo({ write: (line: string) => void lines.push(JSON.parse(line)) });
  return {
    lines,
    restore() {
      if (level === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = level;
      resetEnvCache();
      sendLogsTo({ write: () => undefined });
    },
  };
}
