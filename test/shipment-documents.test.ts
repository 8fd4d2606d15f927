import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { getDb } from "@/lib/db/client";
import { shipmentDocuments } from "@/lib/db/schema";
import { printsAtActualSize } from "@/lib/labels/print-ready";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { POST as shipping } from "@/app/v1/proxy/shipping/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { GET as listDocuments } from "@/app/v1/shipments/[id]/documents/route";
import { GET as getDocument } from "@/app/v1/shipments/[id]/documents/[document_id]/route";
import { Shipment } from "@/lib/schemas/shipment";
import { ShipmentDocumentList } from "@/lib/schemas/shipment-document";
import { call, makeOrg } from "./helpers";
import { createShipmentFor, purchaseFor, rateRequest } from "./factories";

/** A parcel of goods to Toronto: the sandbox hands a commercial invoice beside its label. */
const toToronto = {
  recipient: {
    person_name: "Chloé Tremblay",
    address_line1: "290 Bremner Blvd",
    city: "Toronto",
    state_code: "ON",
    postal_code: "M5V 3L9",
    country_code: "CA",
    phone_number: "+1 416 555 0199",
  },
  customs: {
    content_type: "merchandise",
    incoterm: "DAP",
    invoice: "INV-881",
    commodities: [
      {
        description: "Cotton T-shirt",
        quantity: 2,
        value_amount: 15,
        value_currency: "USD",
        weight: 0.25,
        weight_unit: "KG",
        hs_code: "610910",
        origin_country: "US",
      },
    ],
  },
};

async function download(key: string, id: string, documentId: string) {
  const res = await getDocument(
    new Request(`http://localhost/v1/shipments/${id}/documents/${documentId}`, {
      headers: { Authorization: `Token ${key}` },
    }),
    { params: Promise.resolve({ id, document_id: documentId }) },
  );
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const list = (key: string, id: string) =>
  call(listDocuments, "GET", `/v1/shipments/${id}/documents`, { key, params: { id } });

describe("a shipment's documents", () => {
  it("an international purchase stores the carrier's invoice: listed without bytes, downloadable as a PDF", async () => {
    const { key } = await makeOrg();
    const s = await createShipmentFor(key, toToronto);
    const bought = await purchaseFor(key, s);
    expect(bought.status).toBe(200);
    const shipment = Shipment.strict().parse(bought.body.shipment);
    expect(shipment.documents).toEqual([
      {
        id: expect.stringMatching(/^doc_[0-9a-f]{32}$/),
        type: "commercial_invoice",
        format: "PDF",
        name: "Commercial invoice",
        size: expect.any(Number),
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/),
        content: null,
      },
    ]);
    const [invoice] = shipment.documents;

    // The stored shipment and the documents list say the same.
    const read = await call(getShipment, "GET", `/v1/shipments/${s.id}`, { key, params: { id: s.id } });
    expect(read.body.documents).toEqual(shipment.documents);
    const listed = await list(key, s.id);
    expect(listed.status).toBe(200);
    expect(ShipmentDocumentList.strict().parse(listed.body)).toEqual({ results: shipment.documents });

    const { res, bytes } = await download(key, s.id, invoice!.id!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="${shipment.tracking_number}-commercial-invoice.pdf"`,
    );
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getTitle()).toBe(`Commercial invoice ${shipment.tracking_number}`);
    expect(pdf.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
    // The size listed is the stored file's (the download may add the print-at-actual-size flag).
    expect(invoice!.size).toBeGreaterThan(1000);
    expect(Math.abs(bytes.byteLength - invoice!.size)).toBeLessThan(200);
  });

  it("a domestic purchase has none; another shipment's document id, or an unknown one, is not found", async () => {
    const { key } = await makeOrg();
    const domestic = await createShipmentFor(key);
    const bought = await purchaseFor(key, domestic);
    expect(bought.body.shipment.documents).toEqual([]);
    expect((await list(key, domestic.id)).body).toEqual({ results: [] });

    const abroad = await createShipmentFor(key, toToronto);
    const invoiceId = (await purchaseFor(key, abroad)).body.shipment.documents[0].id as string;
    const elsewhere = await download(key, domestic.id, invoiceId);
    expect(elsewhere.res.status).toBe(404);
    const unknown = await download(key, abroad.id, `doc_${"0".repeat(32)}`);
    expect(unknown.res.status).toBe(404);
    const malformed = await download(key, abroad.id, "invoice.pdf");
    expect(malformed.res.status).toBe(400);
  });

  it("papers of one kind are told apart by their place; a PDF is flagged to print at actual size, a PNG is as drawn", async () => {
    const { key, orgId } = await makeOrg();
    const s = await createShipmentFor(key, toToronto);
    const shipment = (await purchaseFor(key, s)).body.shipment as { tracking_number: string };
    // Papers a carrier may hand beside the invoice: a second certificate of origin, an image.
    const pdf = await PDFDocument.create();
    pdf.addPage([612, 792]);
    const png = Uint8Array.from(Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex"));
    const db = await getDb();
    await db.insert(shipmentDocuments).values([
      {
        id: `doc_${"a".repeat(32)}`,
        orgId,
        shipmentId: s.id,
        position: 1,
        type: "certificate_of_origin",
        format: "PDF",
        name: null,
        content: await pdf.save(),
      },
      {
        id: `doc_${"b".repeat(32)}`,
        orgId,
        shipmentId: s.id,
        position: 2,
        type: "other",
        format: "PNG",
        name: "Photo",
        content: png,
      },
      {
        id: `doc_${"d".repeat(32)}`,
        orgId,
        shipmentId: s.id,
        position: 3,
        type: "other",
        format: "ZPL",
        name: "Thermal copy",
        content: new TextEncoder().encode("^XA^FDcopy^FS^XZ\n"),
      },
    ]);

    const second = await download(key, s.id, `doc_${"a".repeat(32)}`);
    expect(second.res.headers.get("content-disposition")).toBe(
      `attachment; filename="${shipment.tracking_number}-certificate-of-origin-2.pdf"`,
    );
    expect(await printsAtActualSize(await PDFDocument.load(second.bytes))).toBe(true);

    const image = await download(key, s.id, `doc_${"b".repeat(32)}`);
    expect(image.res.headers.get("content-type")).toBe("image/png");
    expect(image.res.headers.get("content-disposition")).toBe(
      `attachment; filename="${shipment.tracking_number}-other-3.png"`,
    );
    expect(image.bytes).toEqual(png);

    const thermal = await download(key, s.id, `doc_${"d".repeat(32)}`);
    expect(thermal.res.headers.get("content-disposition")).toBe(
      `attachment; filename="${shipment.tracking_number}-other-4.zpl"`,
    );
    expect(new TextDecoder().decode(thermal.bytes)).toBe("^XA^FDcopy^FS^XZ\n");

    const missing = await download(key, s.id, `doc_${"c".repeat(32)}`);
    expect(missing.res.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(missing.bytes))).toMatchObject({
      errors: [{ code: "not_found", message: `Document doc_${"c".repeat(32)} of shipment ${s.id} does not exist.` }],
    });
  });

  it("a shipment not yet bought lists no documents", async () => {
    const { key } = await makeOrg();
    const s = await createShipmentFor(key, toToronto);
    expect(s.documents).toEqual([]);
    expect((await list(key, s.id)).body).toEqual({ results: [] });
  });

  it("proxy mode stores nothing, so the invoice comes inline: base64 wrapped as labels are, no id", async () => {
    const { key } = await makeOrg();
    const quoted = await call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest(toToronto) });
    const offered = quoted.body.rates as { id: string }[];
    const res = await call(shipping, "POST", "/v1/proxy/shipping", {
      key,
      body: { ...rateRequest(toToronto), rates: offered, selected_rate_id: offered[0]!.id },
    });
    expect(res.status).toBe(200);
    const shipment = Shipment.strict().parse(res.body);
    expect(shipment.documents).toMatchObject([
      { id: null, type: "commercial_invoice", format: "PDF", content: expect.any(String) },
    ]);
    const [invoice] = shipment.documents;
    expect(invoice!.content!.split("\n").every((l) => l.length <= 76)).toBe(true);
    const bytes = Buffer.from(invoice!.content!.replace(/\n/g, ""), "base64");
    expect(bytes.byteLength).toBe(invoice!.size);
    expect((await PDFDocument.load(bytes)).getTitle()).toBe(`Commercial invoice ${shipment.tracking_number}`);
  });
});
