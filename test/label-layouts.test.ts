import { eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as label } from "@/app/v1/shipments/[id]/label/route";
import { getDb } from "@/lib/db/client";
import { labels } from "@/lib/db/schema";
import { printsAtActualSize } from "@/lib/labels/print-ready";
import { layOnSheet } from "@/lib/labels/sheet";
import { call, makeOrg } from "./helpers";
import { createShipmentFor, purchaseFor } from "./factories";
import { placements } from "./pdf-placements";

// A pass-through spy, so a test can make laying a label on paper fail in a way the sheet code does not foresee.
vi.mock("@/lib/labels/sheet", async (original) => {
  const real = await original<typeof import("@/lib/labels/sheet")>();
  return { ...real, layOnSheet: vi.fn(real.layOnSheet) };
});

afterEach(() => vi.restoreAllMocks());

/** GET the label file as raw bytes (the `call` helper reads bodies as JSON). */
async function fetchLabel(key: string, id: string, query = "") {
  const res = await label(
    new Request(`http://localhost/v1/shipments/${id}/label${query}`, { headers: { Authorization: `Token ${key}` } }),
    { params: Promise.resolve({ id }) },
  );
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function boughtShipment(labelType: "PDF" | "PNG" | "ZPL") {
  const { key } = await makeOrg();
  const s = await createShipmentFor(key, { label_type: labelType });
  const bought = await purchaseFor(key, s);
  expect(bought.status).toBe(200);
  return { key, shipment: bought.body.shipment as { id: string; tracking_number: string; label: string } };
}

const close = (n: number) => expect.closeTo(n, 2);

describe("GET /v1/shipments/{id}/label?layout=", () => {
  it("lays a PDF label at 100% on the top half of a Letter or an A4 sheet, flagged to print at actual size", async () => {
    const { key, shipment } = await boughtShipment("PDF");
    const sheets = { letter: [612, 792, "Letter"], a4: [595.28, 841.89, "A4"] } as const;
    for (const [layout, [width, height, paper]] of Object.entries(sheets)) {
      const { res, bytes } = await fetchLabel(key, shipment.id, `?layout=${layout}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="${shipment.tracking_number}-${layout}.pdf"`,
      );
      const doc = await PDFDocument.load(bytes);
      expect(await printsAtActualSize(doc)).toBe(true);
      // What a viewer's tab and the print queue show.
      expect(doc.getTitle()).toBe(`Label ${shipment.tracking_number} on ${paper} paper`);
      expect(doc.getPageCount()).toBe(1);
      const page = doc.getPages()[0]!;
      expect(page.getSize()).toEqual({ width, height });
      const [placed, ...others] = placements(doc, page);
      expect(others).toEqual([]);
      expect(placed).toMatchObject({ kind: "form", scale: { x: close(1), y: close(1) }, turn: 90 });
      expect(placed!.box.right - placed!.box.left).toBeCloseTo(432, 2);
      expect(placed!.box.top - placed!.box.bottom).toBeCloseTo(288, 2);
      expect(placed!.box.bottom).toBeGreaterThanOrEqual(height / 2);
    }
  });

  it("lays a PNG label at its printed size and takes the layout in any case", async () => {
    const { key, shipment } = await boughtShipment("PNG");
    const { res, bytes } = await fetchLabel(key, shipment.id, "?layout=A4&format=png");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const doc = await PDFDocument.load(bytes);
    expect(placements(doc, doc.getPages()[0]!)).toEqual([
      expect.objectContaining({ kind: "image", scale: { x: close(288), y: close(432) }, turn: 90 }),
    ]);
  });

  it("refuses to lay a ZPL label on paper (400 on layout) and serves it as bought", async () => {
    const { key, shipment } = await boughtShipment("ZPL");
    const url = `/v1/shipments/${shipment.id}/label`;
    const refused = await call(label, "GET", url, { key, params: { id: shipment.id }, query: { layout: "letter" } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { code: "validation_error", field: "layout", message: expect.stringContaining("ZPL label") },
    ]);
    const asBought = await fetchLabel(key, shipment.id, "?layout=label");
    expect(asBought.res.status).toBe(200);
    expect(asBought.res.headers.get("content-type")).toBe("application/zpl");
    const unknown = await call(label, "GET", url, { key, params: { id: shipment.id }, query: { layout: "legal" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ code: "validation_error", field: "layout" });
  });

  it("a sheet that fails for a reason of ours is a 500, not blamed on the layout asked", async () => {
    const { key, shipment } = await boughtShipment("PDF");
    vi.mocked(layOnSheet).mockRejectedValueOnce(new Error("out of memory"));
    const url = `/v1/shipments/${shipment.id}/label`;
    const res = await call(label, "GET", url, { key, params: { id: shipment.id }, query: { layout: "letter" } });
    expect(res.status).toBe(500);
    expect(res.body.errors[0]).toMatchObject({ code: "internal_error" });
  });

  it("hands out every PDF flagged to print at actual size, a carrier's as well as ours", async () => {
    const { key, shipment } = await boughtShipment("PDF");
    const ours = await fetchLabel(key, shipment.id);
    expect(await printsAtActualSize(await PDFDocument.load(ours.bytes))).toBe(true);
    // Our renderer sets the flag itself, so our labels are served byte for byte as stored.
    expect(Buffer.from(ours.bytes).equals(Buffer.from(shipment.label.replace(/\n/g, ""), "base64"))).toBe(true);

    // A PDF another carrier drew, without the flag, stored as that carrier sold it.
    const carrierDoc = await PDFDocument.create();
    carrierDoc.addPage([288, 432]).drawText("1Z999AA10123456784", { x: 20, y: 200, size: 14 });
    const db = await getDb();
    await db
      .update(labels)
      .set({ content: await carrierDoc.save() })
      .where(eq(labels.shipmentId, shipment.id));
    const theirs = await fetchLabel(key, shipment.id);
    expect(theirs.res.status).toBe(200);
    expect(theirs.res.headers.get("content-length")).toBe(String(theirs.bytes.byteLength));
    const served = await PDFDocument.load(theirs.bytes);
    expect(await printsAtActualSize(served)).toBe(true);
    expect(served.getPages()[0]!.getSize()).toEqual({ width: 288, height: 432 });
  });
});
