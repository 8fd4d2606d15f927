import { afterEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { PATCH as updateConnection } from "@/app/v1/connections/[id]/route";
import { POST as proxyRates } from "@/app/v1/proxy/rates/route";
import { getDb } from "@/lib/db/client";
import { carrierConnections } from "@/lib/db/schema";
import type { Db } from "@/lib/db/tx";
import { withTransaction } from "@/lib/context";
import { forgetOrgConnections, orgConnections } from "@/lib/connections/cache";
import { call, makeOrg } from "./helpers";
import { addSandbox, rateRequest } from "./factories";

afterEach(() => vi.useRealTimers());

const carriersRated = async (key: string) => {
  const res = await call(proxyRates, "POST", "/v1/proxy/rates", { key, body: rateRequest() });
  return {
    status: res.status,
    carriers: [...new Set((res.body.rates ?? []).map((r: { carrier_id: string }) => r.carrier_id))].sort(),
  };
};

describe("carrier connections on the request path (cached per organization)", () => {
  it("a connection added or deactivated through the API counts from the very next request", async () => {
    const { key } = await makeOrg();
    expect(await carriersRated(key)).toEqual({ status: 200, carriers: ["sandbox"] });
    const added = await addSandbox(key, "second");
    expect(await carriersRated(key)).toEqual({ status: 200, carriers: ["sandbox", "second"] });
    const off = await call(updateConnection, "PATCH", `/v1/connections/${added.id}`, {
      key,
      params: { id: added.id },
      body: { active: false },
    });
    expect(off.status).toBe(200);
    expect(await carriersRated(key)).toEqual({ status: 200, carriers: ["sandbox"] });
  });

  it("a change made by another instance is seen within 5 seconds", async () => {
    const { key, orgId } = await makeOrg();
    expect((await carriersRated(key)).status).toBe(200);
    // Another instance deactivates the organization's only connection directly in the shared database.
    const db = await getDb();
    await db.update(carrierConnections).set({ active: false }).where(eq(carrierConnections.orgId, orgId));
    expect((await carriersRated(key)).status).toBe(200); // still remembered here
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 5_001 });
    expect((await carriersRated(key)).status).toBe(404); // carrier_not_found: no active connection left
  });
});

describe("orgConnections (the cache itself)", () => {
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

  /** A handle on the same database whose reads of the connections table fail (or wait) when told to. */
  function unreliable(db: Db) {
    const state = { reads: 0, failNext: false, hold: null as Promise<void> | null };
    const handle = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop !== "select") return Reflect.get(target, prop, receiver);
        return (...args: unknown[]) => {
          state.reads++;
          const query = target.select(...(args as [])) as unknown as { from: (t: unknown) => unknown };
          const fail = state.failNext;
          const hold = state.hold;
          state.failNext = false;
          const chain = (q: unknown): unknown =>
            new Proxy(q as object, {
              get(t, p, r) {
                if (p === "then") {
                  return (ok: (v: unknown) => unknown, ko: (e: unknown) => unknown) =>
                    (async () => {
                      await hold;
                      if (fail) throw new Error("connection reset");
                      return (t as PromiseLike<unknown>).then((v) => v);
                    })().then(ok, ko);
                }
                const v = Reflect.get(t, p, r);
                return typeof v === "function" ? (...a: unknown[]) => chain(v.apply(t, a)) : v;
              },
            });
          return chain(query);
        };
      },
    });
    return { handle, state };
  }

  it("shares one read among concurrent requests and answers from it for 5 seconds", async () => {
    const { orgId } = await makeOrg();
    const { handle, state } = unreliable(await getDb());
    vi.useFakeTimers({ toFake: ["Date"] });
    const [a, b] = await Promise.all([orgConnections(handle, orgId), orgConnections(handle, orgId)]);
    expect(a).toBe(b);
    expect(state.reads).toBe(1);
    vi.advanceTimersByTime(4_999);
    await orgConnections(handle, orgId);
    expect(state.reads).toBe(1);
    vi.advanceTimersByTime(1);
    await orgConnections(handle, orgId);
    expect(state.reads).toBe(2);
  });

  it("does not remember a failed read, nor let it forget a newer one", async () => {
    const { orgId } = await makeOrg();
    const { handle, state } = unreliable(await getDb());
    state.failNext = true;
    await expect(orgConnections(handle, orgId)).rejects.toThrow("connection reset");
    expect(ids(await orgConnections(handle, orgId))).toHaveLength(1); // read again, not the failure replayed
    expect(state.reads).toBe(2);

    // A slow read that fails after a write made the organization's entry stale and a newer read replaced it.
    forgetOrgConnections(orgId);
    let release!: () => void;
    state.hold = new Promise<void>((r) => (release = r));
    state.failNext = true;
    const slow = orgConnections(handle, orgId);
    state.hold = null;
    forgetOrgConnections(orgId);
    const newer = await orgConnections(handle, orgId);
    release();
    await expect(slow).rejects.toThrow("connection reset");
    expect(await orgConnections(handle, orgId)).toBe(newer);
    expect(state.reads).toBe(4);
  });

  it("inside a transaction reads the table itself, so a verb sees its own writes", async () => {
    const { orgId } = await makeOrg();
    const db = await getDb();
    const before = await orgConnections(db, orgId);
    expect(before.map((c) => c.active)).toEqual([true]);
    await expect(
      withTransaction({ db }, async (tx) => {
        await tx.db.update(carrierConnections).set({ active: false }).where(eq(carrierConnections.orgId, orgId));
        expect((await orgConnections(tx.db, orgId)).map((c) => c.active)).toEqual([false]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await orgConnections(db, orgId)).toBe(before);
  });
});
