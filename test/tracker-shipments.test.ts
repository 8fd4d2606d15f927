import { describe, expect, it } from "vitest";
import { trackerShipments } from "@/lib/dashboard/tracker-shipments";
import { makeOrg, orgCtx } from "./helpers";
import { createShipmentFor } from "./factories";

describe("trackerShipments (the trackers list's recipient and reference)", () => {
  it("names each shipment's recipient, place and reference, and nothing for a tracker without one", async () => {
    const org = await makeOrg();
    const named = await createShipmentFor(org.key, { reference: "ORDER-77" });
    const company = await createShipmentFor(org.key, {
      recipient: {
        company_name: "Zeta Co",
        address_line1: "1 Main St",
        city: "Toronto",
        state_code: "ON",
        postal_code: "M5B 2H1",
        country_code: "CA",
      },
    });
    const found = await trackerShipments(await orgCtx(org.orgId), [named.id, company.id, null, named.id]);
    expect(found.size).toBe(2);
    expect(found.get(named.id)).toEqual({ recipient: "Bob Receiver", place: "Austin, TX, US", reference: "ORDER-77" });
    expect(found.get(company.id)).toEqual({ recipient: "Zeta Co", place: "Toronto, ON, CA", reference: null });
    expect((await trackerShipments(await orgCtx(org.orgId), [null])).size).toBe(0);
  });

  it("never reads another organization's shipment", async () => {
    const mine = await makeOrg();
    const theirs = await makeOrg();
    const other = await createShipmentFor(theirs.key, { reference: "THEIRS" });
    expect((await trackerShipments(await orgCtx(mine.orgId), [other.id])).size).toBe(0);
  });
});
