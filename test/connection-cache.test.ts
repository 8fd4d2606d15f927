import { afterEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { PATCH as updateConnection } from "@/app/v1/connections/[id]/route";
import { POST as proxyRates } from "@/app/v1/proxy/rates/route";
import { getDb } from "@/lib/db/client";
import { carrierConnections } from "@/lib/db/schema";
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
