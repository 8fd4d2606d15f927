import { afterAll, afterEach, beforeAll, vi } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { resetEnvCache } from "@/lib/env";
import { getDb } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { encryptSecret, newSigningSecret } from "@/lib/webhooks/endpoint-rows";
import { startReceiver, type Receiver } from "./webhook-receiver";

/** Receivers on 127.0.0.1 need private addresses allowed (and test endpoints may use http). */
export function allowPrivateUrls(on = true) {
  process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = on ? "1" : "0";
  resetEnvCache();
}

/**
 * The hooks of a file whose webhooks go to real receivers on 127.0.0.1: private addresses allowed for the file (and
 * again after each test, which may have refused them), the real clock back and every receiver closed after each test.
 * Answers the function that starts a receiver closed after its test.
 */
export function useWebhookReceivers() {
  const open: Receiver[] = [];
  beforeAll(() => allowPrivateUrls(true));
  afterEach(async () => {
    vi.useRealTimers();
    allowPrivateUrls(true);
    await Promise.all(open.splice(0).map((r) => r.close()));
  });
  afterAll(() => {
    delete process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;
    resetEnvCache();
  });
  return async (answer?: Parameters<typeof startReceiver>[0]) => {
    const r = await startReceiver(answer);
    open.push(r);
    return r;
  };
}

/** An endpoint row as the webhooks API would create it; answers its id and its signing secret. */
export async function createEndpoint(
  orgId: string,
  url: string,
  more: Partial<typeof webhookEndpoints.$inferInsert> = {},
): Promise<{ id: string; secret: string }> {
  const db = await getDb();
  const id = newId("webhook");
  const secret = newSigningSecret();
  await db.insert(webhookEndpoints).values({
    id,
    orgId,
    url,
    enabledEvents: ["*"],
    testMode: true,
    apiVersion: "2026-11",
    secretEncrypted: encryptSecret(id, secret),
    ...more,
  });
  return { id, secret };
}

export async function endpointRow(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row!;
}

export async function deliveriesOf(endpointId: string) {
  const db = await getDb();
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(asc(webhookDeliveries.id));
}

export async function attemptsOf(endpointId: string, eventId?: string) {
  const db = await getDb();
  return db
    .select()
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.endpointId, endpointId), eventId ? eq(webhookAttempts.eventId, eventId) : undefined))
    .orderBy(asc(webhookAttempts.id));
}

/** A clock the test moves by hand. */
export function fakeClock(start = new Date()) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    set: (d: Date) => {
      now = d.getTime();
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}
