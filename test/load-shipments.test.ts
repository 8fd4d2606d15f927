import { describe, expect, it } from "vitest";
import { and, asc, eq, inArray } from "drizzle-orm";
import { addresses, labels, parcels, rates } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import {
  documentFacts,
  findShipmentRow,
  loadShipment,
  loadShipmentParts,
  loadShipments,
} from "@/lib/shipments/load-shipments";
import { NotFoundError } from "@/lib/errors";
import { makeOrg, orgCtx } from "./helpers";
import { createShipmentFor, purchaseFor, torontoRecipient, tshirtCustoms } from "./factories";

/**
 * The shipment loader reads a shipment's parts as JSON columns of one statement (lib/db/json-rows.ts). What it
 * answers must be exactly what a drizzle select of each table answers: the same Dates (to the millisecond a Date
 * holds), money as numbers, jsonb as objects, nulls as nulls, in position order.
 */

// A name in more than one script: it goes through JSON and back.
const toronto = { ...torontoRecipient, company_name: "株式会社 Zoë" };
const customs = tshirtCustoms;
const twoParcels = [
  { weight: 2.5, weight_unit: "KG", length: 30, width: 20, height: 15, dimension_unit: "CM", description: "first" },
  { weight: 0.125, weight_unit: "LB" },
];

/** The parts as the loader read them before it was one statement: a select per table. */
async function separately(db: DbOrTx, orgId: string, id: string) {
  const row = await findShipmentRow(db, orgId, id);
  const [addressRows, parcelRows, rateRows, [label]] = await Promise.all([
    db
      .select()
      .from(addresses)
      .where(and(eq(addresses.orgId, orgId), inArray(addresses.id, [row.shipperId, row.recipientId]))),
    db
      .select()
      .from(parcels)
      .where(and(eq(parcels.orgId, orgId), eq(parcels.shipmentId, id)))
      .orderBy(asc(parcels.position)),
    db
      .select()
      .from(rates)
      .where(and(eq(rates.orgId, orgId), eq(rates.shipmentId, id)))
      .orderBy(asc(rates.position)),
    db
      .select({ content: labels.content })
      .from(labels)
      .where(and(eq(labels.orgId, orgId), eq(labels.shipmentId, id))),
  ]);
  return {
    row,
    shipper: addressRows.find((a) => a.id === row.shipperId),
    recipient: addressRows.find((a) => a.id === row.recipientId),
    parcels: parcelRows,
    rates: rateRows,
    label: label ? { content: label.content } : null,
    documents: (await documentFacts(db, orgId, [id])).map(({ shipmentId: _, ...d }) => d),
  };
}

describe("loading shipments in one statement", () => {
  it("answers what a select per table answers, bought or not, with documents and labels", async () => {
    const { key, orgId } = await makeOrg();
    const ctx = await orgCtx(orgId);
    const draft = await createShipmentFor(key, { parcels: twoParcels });
    const abroad = await createShipmentFor(key, { recipient: toronto, customs });
    const bought = await purchaseFor(key, abroad);
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);

    for (const id of [draft.id, abroad.id]) {
      const expected = await separately(ctx.db, orgId, id);
      expect(await loadShipment(ctx.db, orgId, id)).toEqual(expected);
      expect(await loadShipment(ctx.db, orgId, id, { labels: false })).toEqual({ ...expected, label: null });
      const [fromRows] = await loadShipmentParts(ctx.db, orgId, [expected.row]);
      expect(fromRows).toEqual(expected);
    }
    const abroadParts = await loadShipment(ctx.db, orgId, abroad.id);
    expect(abroadParts.label?.content.byteLength).toBeGreaterThan(1000);
    expect(abroadParts.documents).toEqual([
      expect.objectContaining({ type: "commercial_invoice", format: "PDF", size: expect.any(Number) }),
    ]);
    expect(abroadParts.documents[0]!.size).toBeGreaterThan(1000);
    const draftParts = await loadShipment(ctx.db, orgId, draft.id);
    expect(draftParts.parcels.map((p) => [p.position, p.weight, p.description])).toEqual([
      [0, 2.5, "first"],
      [1, 0.125, null],
    ]);
    expect(draftParts.rates.length).toBeGreaterThan(1);
    const storedRates = await ctx.db.select().from(rates).where(eq(rates.shipmentId, draft.id));
    expect(draftParts.rates.map((r) => r.id)).toEqual(
      storedRates.sort((x, y) => x.position - y.position).map((r) => r.id),
    );
    expect(typeof draftParts.rates[0]!.totalCharge).toBe("number");
    expect(draftParts.row.createdAt).toBeInstanceOf(Date);
    expect(draftParts.recipient.createdAt).toBeInstanceOf(Date);
  });

  it("leaves out another organization's shipments and ids of none; keeps the caller's rows in order", async () => {
    const mine = await makeOrg();
    const theirs = await makeOrg();
    const a = await createShipmentFor(mine.key);
    const b = await createShipmentFor(mine.key);
    const foreign = await createShipmentFor(theirs.key);
    const ctx = await orgCtx(mine.orgId);

    const loaded = await loadShipments(ctx.db, mine.orgId, [b.id, foreign.id, "shp_nothing", a.id]);
    expect(loaded.map((p) => p.row.id).sort()).toEqual([a.id, b.id].sort());
    await expect(loadShipment(ctx.db, mine.orgId, foreign.id)).rejects.toThrow(
      new NotFoundError(`Shipment ${foreign.id} does not exist.`),
    );
    await expect(findShipmentRow(ctx.db, mine.orgId, foreign.id)).rejects.toThrow(
      new NotFoundError(`Shipment ${foreign.id} does not exist.`),
    );
    expect(await loadShipments(ctx.db, mine.orgId, [])).toEqual([]);
    expect(await loadShipmentParts(ctx.db, mine.orgId, [])).toEqual([]);
    expect(await documentFacts(ctx.db, mine.orgId, [])).toEqual([]);

    const rows = [await findShipmentRow(ctx.db, mine.orgId, b.id), await findShipmentRow(ctx.db, mine.orgId, a.id)];
    const parts = await loadShipmentParts(ctx.db, mine.orgId, rows, { labels: false });
    expect(parts.map((p) => p.row.id)).toEqual([b.id, a.id]);
    expect(parts.map((p) => p.shipper.id)).toEqual(rows.map((r) => r.shipperId));
    expect(parts.map((p) => p.recipient.id)).toEqual(rows.map((r) => r.recipientId));
  });
});
