import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { RETRY_DELAYS_MS, MAX_ATTEMPTS } from "./backoff";
import { disableReason, sendDelivery, type DeliveryRow, type SentAttempt } from "./deliver";
import { encryptSecret, newSigningSecret, type WebhookEndpointRow } from "./endpoint-rows";
import type { EventRow } from "./event-rows";

/** The verdict of one attempt and what it means for the endpoint, without a database (deliver.ts). */

const DAY = 86_400_000;
const t0 = new Date("2026-11-20T10:00:00Z");

function attempt(statusCode: number | null, attemptedAt: Date): SentAttempt {
  return {
    delivery: {} as DeliveryRow,
    event: {} as EventRow,
    attemptedAt,
    result: { statusCode, excerpt: null, errorClass: "http_status", durationMs: 1 },
    verdict: { status: "pending", nextAttemptAt: attemptedAt },
  };
}

describe("disableReason", () => {
  it("is `gone` on a 410 at once, whatever the failing time", () => {
    expect(disableReason(attempt(410, t0), t0)).toBe("gone");
    expect(disableReason(attempt(404, t0), t0)).toBeNull();
    expect(disableReason(attempt(null, t0), t0)).toBeNull();
  });

  it("is `failing` from exactly 5 days of failures on, not a millisecond before", () => {
    expect(disableReason(attempt(500, new Date(t0.getTime() + 5 * DAY - 1)), t0)).toBeNull();
    expect(disableReason(attempt(500, new Date(t0.getTime() + 5 * DAY)), t0)).toBe("failing");
    expect(disableReason(attempt(null, new Date(t0.getTime() + 6 * DAY)), t0)).toBe("failing");
  });
});

describe("sendDelivery", () => {
  let url = "";
  let status = 200;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(status).end("answer"));
  });
  beforeAll(async () => {
    process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "1";
    resetEnvCache();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    delete process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;
    resetEnvCache();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const endpoint = (): WebhookEndpointRow =>
    ({
      id: "whk_1",
      orgId: "org_1",
      url,
      testMode: true,
      apiVersion: "2026-11",
      secretEncrypted: encryptSecret("whk_1", newSigningSecret()),
      previousSecretEncrypted: null,
      previousSecretExpiresAt: null,
    }) as WebhookEndpointRow;
  const event: EventRow = {
    id: "evt_1",
    seq: 1,
    orgId: "org_1",
    resourceId: "trk_1",
    type: "tracker.updated",
    createdAt: t0,
    testMode: true,
    data: { id: "trk_1" },
  };
  const delivery = (attempts: number) => ({ id: 1, attempts }) as DeliveryRow;

  it("succeeds on a 2xx, at the time it was given", async () => {
    status = 204;
    const sent = await sendDelivery(endpoint(), delivery(0), event, t0);
    expect(sent).toMatchObject({ attemptedAt: t0, verdict: { status: "succeeded" } });
    expect(sent.result).toMatchObject({ statusCode: 204, errorClass: null });
  });

  it("counts this attempt when it schedules the retry, and ends in failed once the schedule is over", async () => {
    status = 500;
    const random = () => 0.5;
    const first = await sendDelivery(endpoint(), delivery(0), event, t0, { random });
    expect(first.verdict).toEqual({ status: "pending", nextAttemptAt: new Date(t0.getTime() + RETRY_DELAYS_MS[0]!) });
    const third = await sendDelivery(endpoint(), delivery(2), event, t0, { random });
    expect(third.verdict).toEqual({ status: "pending", nextAttemptAt: new Date(t0.getTime() + RETRY_DELAYS_MS[2]!) });
    const last = await sendDelivery(endpoint(), delivery(MAX_ATTEMPTS - 1), event, t0, { random });
    expect(last.verdict).toEqual({ status: "failed" });
    expect(last.result).toMatchObject({ statusCode: 500, errorClass: "http_status", excerpt: "answer" });
  });

  it("refuses plain http to a live endpoint unless the operator allows it", async () => {
    status = 200;
    const live = { ...endpoint(), testMode: false };
    expect((await sendDelivery(live, delivery(0), event, t0)).result.errorClass).toBe("insecure_url");
    process.env.WEBHOOKS_ALLOW_HTTP = "1";
    resetEnvCache();
    try {
      expect((await sendDelivery(live, delivery(0), event, t0)).result.errorClass).toBeNull();
    } finally {
      delete process.env.WEBHOOKS_ALLOW_HTTP;
      resetEnvCache();
    }
  });

  it("refuses a private address unless the operator allows them", async () => {
    process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "0";
    resetEnvCache();
    try {
      expect((await sendDelivery(endpoint(), delivery(0), event, t0)).result.errorClass).toBe("refused_address");
    } finally {
      process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "1";
      resetEnvCache();
    }
  });
});
