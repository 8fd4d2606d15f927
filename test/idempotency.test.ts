import { afterEach, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { POST as createKey } from "@/app/v1/api_keys/route";
import { POST as createHook } from "@/app/v1/webhooks/route";
import { ApiError } from "@/lib/api/errors";
import {
  beginIdempotent,
  completeIdempotent,
  IDEMPOTENCY_KEY_PATTERN,
  releaseIdempotent,
  requestFingerprint,
  sweepExpiredIdempotencyKeys,
} from "@/lib/api/idempotency";
import { getDb } from "@/lib/db/client";
import { idempotencyKeys } from "@/lib/db/schema";
import type { Db } from "@/lib/db/tx";
import { call, makeOrg, writesWaiting } from "./helpers";

// docs/api.md, "Idempotency": a key lives 24 h; a request still in progress after 5 minutes died with its process.
const MINUTE = 60_000;
const LOCK_MS = 5 * MINUTE;
const TTL_MS = 24 * 60 * MINUTE;

// Time is an input here: only Date is faked, so the database driver's own timers run as usual. Moving the clock
// forwards by more than a few minutes would let the background sweep delete other test files' keys on a shared
// Postgres database, so keys that must look a day old are made with the clock set back instead.
const at = (ms: number) => vi.setSystemTime(ms);
afterEach(() => vi.useRealTimers());

async function setup() {
  vi.useFakeTimers({ toFake: ["Date"] });
  const { orgId } = await makeOrg();
  const db = await getDb();
  const input = (key: string, body = "{}") => ({
    orgId,
    key,
    method: "POST",
    path: "/v1/things",
    fingerprint: requestFingerprint("POST", "/v1/things", body),
  });
  const row = async (key: string) =>
    (
      await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, key)))
    )[0];
  return { orgId, db, input, row, t0: Date.now() };
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe("beginIdempotent", () => {
  it("records a new key in progress, locked for 5 minutes and kept for 24 hours", async () => {
    const { input, row, t0 } = await setup();
    const start = await beginIdempotent((await getDb()) as Db, input("new"));
    expect(start).toEqual({ kind: "started", lock: new Date(t0 + LOCK_MS) });
    expect(await row("new")).toMatchObject({
      requestHash: input("new").fingerprint,
      method: "POST",
      path: "/v1/things",
      state: "in_progress",
      responseStatus: null,
      lockedUntil: new Date(t0 + LOCK_MS),
      expiresAt: new Date(t0 + TTL_MS),
    });
  });

  it("answers 'in progress' (Retry-After 1) until the lock's last millisecond, then lets a retry take the key", async () => {
    const { db, input, row, t0 } = await setup();
    await beginIdempotent(db, input("held"));
    for (const t of [t0, t0 + LOCK_MS - 1]) {
      at(t);
      const err = await refusal(beginIdempotent(db, input("held")));
      expect(err.code).toBe("idempotency_in_progress");
      expect(err.message).toBe("A request with this Idempotency-Key is still in progress.");
      expect(err.options.headers).toEqual({ "Retry-After": "1" });
    }
    at(t0 + LOCK_MS); // the first request died with its process: its lock ran out
    const taken = await beginIdempotent(db, input("held"));
    expect(taken).toEqual({ kind: "started", lock: new Date(t0 + 2 * LOCK_MS) });
    expect(await row("held")).toMatchObject({ state: "in_progress", lockedUntil: new Date(t0 + 2 * LOCK_MS) });
    // The new holder's lock now holds off everyone else in turn.
    expect((await refusal(beginIdempotent(db, input("held")))).code).toBe("idempotency_in_progress");
  });

  it("after a takeover, only the new holder's answer is recorded; the old holder can neither complete nor free it", async () => {
    const { db, orgId, input, row, t0 } = await setup();
    const first = await beginIdempotent(db, input("k"));
    at(t0 + LOCK_MS + 1);
    const second = await beginIdempotent(db, input("k"));
    if (first.kind !== "started" || second.kind !== "started") throw new Error("both should have started");
    const oldSlot = { orgId, key: "k", lock: first.lock };
    const newSlot = { orgId, key: "k", lock: second.lock };

    await completeIdempotent(db, oldSlot, 201, { from: "old" });
    await releaseIdempotent(db, oldSlot);
    expect(await row("k")).toMatchObject({ state: "in_progress", lockedUntil: second.lock });

    await completeIdempotent(db, newSlot, 201, { from: "new" });
    expect(await beginIdempotent(db, input("k"))).toEqual({ kind: "replay", status: 201, body: { from: "new" } });
    // A completed key is never taken over, however old its lock.
    at(t0 + 10 * LOCK_MS);
    expect(await beginIdempotent(db, input("k"))).toEqual({ kind: "replay", status: 201, body: { from: "new" } });
  });

  it("lets only one of two simultaneous retries take over an expired lock", async () => {
    const { db, input, t0 } = await setup();
    await beginIdempotent(db, input("both"));
    at(t0 + LOCK_MS + 1);
    const outcomes = await Promise.allSettled([beginIdempotent(db, input("both")), beginIdempotent(db, input("both"))]);
    expect(outcomes.filter((o) => o.status === "fulfilled").map((o) => o.value)).toEqual([
      { kind: "started", lock: new Date(t0 + 2 * LOCK_MS + 1) },
    ]);
    const [lost] = outcomes.filter((o) => o.status === "rejected");
    expect((lost!.reason as ApiError).code).toBe("idempotency_in_progress");
  });

  it("tells a retry that read the expired lock just before another retry took it over: in progress", async () => {
    const { db, input, t0 } = await setup();
    await beginIdempotent(db, input("late"));
    at(t0 + LOCK_MS + 1);
    // The order is forced, the same on both engines: the late retry reads the expired lock, the other retry takes it
    // over, and only then does the late one try to.
    let lateRead!: () => void;
    const read = new Promise<void>((resolve) => (lateRead = resolve));
    let takenOver!: () => void;
    const taken = new Promise<void>((resolve) => (takenOver = resolve));
    const late = writesWaiting(db, taken, () => lateRead());
    const lateOutcome = refusal(beginIdempotent(late, input("late")));
    await read;
    expect(await beginIdempotent(db, input("late"))).toEqual({ kind: "started", lock: new Date(t0 + 2 * LOCK_MS + 1) });
    takenOver();
    expect((await lateOutcome).code).toBe("idempotency_in_progress");
  });

  it("replays a completed answer: its status, its body, and 200 when none was stored", async () => {
    const { db, orgId, input } = await setup();
    const start = await beginIdempotent(db, input("done"));
    if (start.kind !== "started") throw new Error("should have started");
    await completeIdempotent(db, { orgId, key: "done", lock: start.lock }, 422, { errors: [{ code: "x" }] });
    expect(await beginIdempotent(db, input("done"))).toEqual({
      kind: "replay",
      status: 422,
      body: { errors: [{ code: "x" }] },
    });

    const bare = await beginIdempotent(db, input("bare"));
    if (bare.kind !== "started") throw new Error("should have started");
    await completeIdempotent(db, { orgId, key: "bare", lock: bare.lock }, 204, undefined);
    await db
      .update(idempotencyKeys)
      .set({ responseStatus: null })
      .where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, "bare")));
    expect(await beginIdempotent(db, input("bare"))).toEqual({ kind: "replay", status: 200, body: null });
  });

  it("keeps the answer sealed to its organization and key; one recorded in the clear still replays", async () => {
    const { db, orgId, input } = await setup();
    const start = await beginIdempotent(db, input("sealed"));
    if (start.kind !== "started") throw new Error("should have started");
    await completeIdempotent(db, { orgId, key: "sealed", lock: start.lock }, 201, { key: "shw_the-only-copy" });
    const [stored] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, "sealed")));
    expect(JSON.stringify(stored)).not.toContain("the-only-copy");
    expect(await beginIdempotent(db, input("sealed"))).toEqual({
      kind: "replay",
      status: 201,
      body: { key: "shw_the-only-copy" },
    });
    // Copied onto another key's record, it does not open.
    const other = await beginIdempotent(db, input("other"));
    if (other.kind !== "started") throw new Error("should have started");
    await db
      .update(idempotencyKeys)
      .set({ state: "completed", responseStatus: 201, responseSealed: stored!.responseSealed })
      .where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, "other")));
    await expect(beginIdempotent(db, input("other"))).rejects.toThrow(/decrypt|auth/i);
    // A record written before answers were sealed replays as it was stored.
    await db
      .update(idempotencyKeys)
      .set({ responseSealed: null, responseBody: { from: "before" } })
      .where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, "other")));
    expect(await beginIdempotent(db, input("other"))).toMatchObject({ kind: "replay", body: { from: "before" } });
  });

  it("refuses the same key with another request (422), in progress or completed", async () => {
    const { db, orgId, input } = await setup();
    const start = await beginIdempotent(db, input("same", '{"a":1}'));
    const reused = await refusal(beginIdempotent(db, input("same", '{"a":2}')));
    expect(reused.code).toBe("idempotency_key_reused");
    expect(reused.message).toMatch(/^This Idempotency-Key was already used with a different request/);
    if (start.kind !== "started") throw new Error("should have started");
    await completeIdempotent(db, { orgId, key: "same", lock: start.lock }, 201, {});
    expect((await refusal(beginIdempotent(db, input("same", '{"a":2}')))).code).toBe("idempotency_key_reused");
  });

  it("keeps a key for exactly 24 hours: replayed until then, a new request from that instant", async () => {
    const { db, orgId, input, t0 } = await setup();
    const born = t0 - TTL_MS; // made a day ago
    at(born);
    const start = await beginIdempotent(db, input("day", '{"v":1}'));
    if (start.kind !== "started") throw new Error("should have started");
    await completeIdempotent(db, { orgId, key: "day", lock: start.lock }, 201, { v: 1 });
    at(t0 - 1);
    expect(await beginIdempotent(db, input("day", '{"v":1}'))).toMatchObject({ kind: "replay", body: { v: 1 } });
    at(t0);
    // Expired: even another body may use the key now, and it starts afresh for another 24 hours.
    expect(await beginIdempotent(db, input("day", '{"v":2}'))).toEqual({
      kind: "started",
      lock: new Date(t0 + LOCK_MS),
    });
  });

  it("starts over when the key it collided with is deleted before it could read it", async () => {
    const { db, orgId, input } = await setup();
    await beginIdempotent(db, input("vanishing"));
    let reads = 0;
    // Between this request's insert (a conflict) and its read, the holder frees the key (a server fault).
    const racing = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === "select" && reads++ === 0) {
          return () => ({
            from: () => ({
              where: async () => {
                await target
                  .delete(idempotencyKeys)
                  .where(and(eq(idempotencyKeys.orgId, orgId), eq(idempotencyKeys.key, "vanishing")));
                return [];
              },
            }),
          });
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    expect((await beginIdempotent(racing, input("vanishing"))).kind).toBe("started");
    expect(reads).toBe(1);
  });

  it("frees the key after a server fault so the retry runs", async () => {
    const { db, orgId, input, row } = await setup();
    const start = await beginIdempotent(db, input("fault"));
    if (start.kind !== "started") throw new Error("should have started");
    await releaseIdempotent(db, { orgId, key: "fault", lock: start.lock });
    expect(await row("fault")).toBeUndefined();
    expect((await beginIdempotent(db, input("fault"))).kind).toBe("started");
  });
});

describe("the sweep of expired keys", () => {
  it("deletes keys whose 24 hours are over, and keeps the one expiring this very instant", async () => {
    const { db, input, row, t0 } = await setup();
    for (const [key, born] of [
      ["over", t0 - TTL_MS - 1],
      ["edge", t0 - TTL_MS],
      ["fresh", t0 - 1],
    ] as const) {
      at(born);
      await beginIdempotent(db, input(key));
    }
    await sweepExpiredIdempotencyKeys(db, new Date(t0));
    expect([await row("over"), await row("edge"), await row("fresh")].map((r) => r?.key)).toEqual([
      undefined,
      "edge",
      "fresh",
    ]);
  });

  it("runs in the background of a request at most every 5 minutes, and again at the next request after a failure", async () => {
    // A fresh module: the time of the last sweep is per process.
    vi.resetModules();
    const idem = await import("@/lib/api/idempotency");
    const { db, input, row, t0 } = await setup();
    const expired = async (key: string) => {
      at(t0 - TTL_MS - 1);
      await idem.beginIdempotent(db, input(key));
    };
    const gone = (key: string) => vi.waitFor(async () => expect(await row(key)).toBeUndefined());

    at(t0);
    await expired("a");
    at(t0);
    await idem.beginIdempotent(db, input("trigger-1")); // the first request of the process sweeps
    await gone("a");

    await expired("b");
    at(t0 + LOCK_MS - 1);
    await idem.beginIdempotent(db, input("trigger-2"));
    // Flush the queue: a sweep started by trigger-2 would have been sent to the database before this read.
    await idem.beginIdempotent(db, input("trigger-2b"));
    expect((await row("b"))?.key).toBe("b");
    at(t0 + LOCK_MS);
    await idem.beginIdempotent(db, input("trigger-3"));
    await gone("b");

    // A sweep that fails is tried again by the very next request, not 5 minutes later.
    await expired("c");
    let failures = 0;
    const failing = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === "delete" && failures === 0) {
          failures++;
          return () => ({ where: () => Promise.reject(new Error("database hiccup")) });
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    at(t0 + 2 * LOCK_MS);
    await idem.beginIdempotent(failing, input("trigger-4"));
    expect(failures).toBe(1);
    at(t0 + 2 * LOCK_MS + 1);
    await idem.beginIdempotent(db, input("trigger-5"));
    await gone("c");
  });
});

describe("Idempotency-Key values", () => {
  it("are 1 to 255 printable ASCII characters, no spaces", () => {
    for (const ok of ["a", "!", "~", "k".repeat(255), "order-1/2?x=y"])
      expect(IDEMPOTENCY_KEY_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ["", "k".repeat(256), "a b", " a", "a\t", "clé", "a\x7f", "a\n"])
      expect(IDEMPOTENCY_KEY_PATTERN.test(bad), JSON.stringify(bad)).toBe(false);
  });

  it("are bound to the request: method, path and body each change the fingerprint", () => {
    const base = requestFingerprint("POST", "/v1/a", "{}");
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(requestFingerprint("POST", "/v1/a", "{}")).toBe(base);
    for (const other of [
      requestFingerprint("PUT", "/v1/a", "{}"),
      requestFingerprint("POST", "/v1/b", "{}"),
      requestFingerprint("POST", "/v1/a", "{ }"),
      requestFingerprint("POST", "/v1/a\n", "{}"),
    ])
      expect(other).not.toBe(base);
  });
});

describe("an answer that holds a secret", () => {
  it("is replayed whole, and kept in no record in the clear: a new API key, a webhook's signing secret", async () => {
    // CONTRACT §2: a key is "stored only as a SHA-256 hash"; docs/api.md: a signing secret is "stored encrypted".
    const { key, orgId } = await makeOrg();
    const headers = { "Idempotency-Key": "make-ci-key" };
    const made = await call(createKey, "POST", "/v1/api_keys", { key, body: { name: "ci" }, headers });
    expect(made.status).toBe(201);
    const hook = await call(createHook, "POST", "/v1/webhooks", {
      key,
      body: { url: "https://hooks.example.com/", enabled_events: "*" },
      headers: { "Idempotency-Key": "make-hook" },
    });
    expect(hook.status).toBe(201);
    const replay = await call(createKey, "POST", "/v1/api_keys", { key, body: { name: "ci" }, headers });
    expect(replay.status).toBe(201);
    expect(replay.body.key).toBe(made.body.key);
    const rows = await (await getDb()).select().from(idempotencyKeys).where(eq(idempotencyKeys.orgId, orgId));
    expect(rows).toHaveLength(2);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(made.body.key.slice("shw_".length));
    expect(stored).not.toContain(hook.body.secret.slice("whsec_".length));
  });
});
