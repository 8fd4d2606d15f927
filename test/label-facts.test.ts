import { describe, expect, it } from "vitest";
import { getLabelFacts } from "@/lib/shipments/label-facts";
import { makeOrg, orgCtx } from "./helpers";
import { createShipmentFor, purchaseFor } from "./factories";

describe("getLabelFacts", () => {
  it("tells the label's format and when it was bought, without its bytes; nothing before purchase or for others", async () => {
    const { key, orgId } = await makeOrg();
    const other = await makeOrg("Other org");
    const s = await createShipmentFor(key, { label_type: "ZPL" });
    const ctx = await orgCtx(orgId);
    expect(await getLabelFacts({ ctx, id: s.id })).toBeNull();
    const before = Date.now();
    expect((await purchaseFor(key, s)).status).toBe(200);
    const facts = await getLabelFacts({ ctx, id: s.id });
    expect(facts).toMatchObject({ type: "ZPL" });
    expect(Object.keys(facts!).sort()).toEqual(["purchasedAt", "type"]);
    expect(facts!.purchasedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await getLabelFacts({ ctx: await orgCtx(other.orgId), id: s.id })).toBeNull();
  });
});
