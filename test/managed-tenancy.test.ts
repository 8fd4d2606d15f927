import { describe, expect, it } from "vitest";
import { GET as listShipments } from "@/app/v1/shipments/route";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { POST as purchase } from "@/app/v1/shipments/[id]/purchase/route";
import { POST as cancel } from "@/app/v1/shipments/[id]/cancel/route";
import { GET as label } from "@/app/v1/shipments/[id]/label/route";
import { GET as listDocuments } from "@/app/v1/shipments/[id]/documents/route";
import { GET as getDocument } from "@/app/v1/shipments/[id]/documents/[document_id]/route";
import { GET as listTrackers } from "@/app/v1/trackers/route";
import { GET as getTracker, DELETE as deleteTracker } from "@/app/v1/trackers/[id]/route";
import { POST as refresh } from "@/app/v1/trackers/[id]/refresh/route";
import { POST as trackPost } from "@/app/v1/trackers/[id]/[tracking_number]/route";
import { call, makeOrg } from "./helpers";
import { createShipmentFor, purchaseFor } from "./factories";

describe("tenancy: another organization's ids are not found", () => {
  it("answers 404 on every shipment and tracker endpoint and lists nothing of the other org", async () => {
    const a = await makeOrg("A");
    const b = await makeOrg("B");
    const bought = await createShipmentFor(a.key);
    const shipment = (await purchaseFor(a.key, bought)).body.shipment;
    const created = await createShipmentFor(a.key);
    const sid = shipment.id as string;
    const tid = shipment.tracker_id as string;

    const asB = { key: b.key };
    const answers = {
      get: await call(getShipment, "GET", `/v1/shipments/${sid}`, { ...asB, params: { id: sid } }),
      purchase: await call(purchase, "POST", `/v1/shipments/${created.id}/purchase`, {
        ...asB,
        params: { id: created.id },
        body: { selected_rate_id: created.rates[0]!.id },
      }),
      cancel: await call(cancel, "POST", `/v1/shipments/${sid}/cancel`, { ...asB, params: { id: sid } }),
      label: await call(label, "GET", `/v1/shipments/${sid}/label`, { ...asB, params: { id: sid } }),
      tracker: await call(getTracker, "GET", `/v1/trackers/${tid}`, { ...asB, params: { id: tid } }),
      refresh: await call(refresh, "POST", `/v1/trackers/${tid}/refresh`, { ...asB, params: { id: tid } }),
      delete: await call(deleteTracker, "DELETE", `/v1/trackers/${tid}`, { ...asB, params: { id: tid } }),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect({ name, status: res.status, code: res.body.errors?.[0]?.code }).toEqual({
        name,
        status: 404,
        code: "not_found",
      });
      expect(JSON.stringify(res.body)).not.toContain(a.orgId);
    }
    // A's own data is untouched by B's attempts.
    expect(
      (await call(getShipment, "GET", `/v1/shipments/${sid}`, { key: a.key, params: { id: sid } })).body.status,
    ).toBe("purchased");
    expect((await call(getTracker, "GET", `/v1/trackers/${tid}`, { key: a.key, params: { id: tid } })).status).toBe(
      200,
    );
    expect(
      (await call(getShipment, "GET", `/v1/shipments/${created.id}`, { key: a.key, params: { id: created.id } })).body
        .status,
    ).toBe("created");

    expect((await call(listShipments, "GET", "/v1/shipments", asB)).body.count).toBe(0);
    expect(
      (
        await call(listShipments, "GET", "/v1/shipments", {
          ...asB,
          query: { tracking_number: shipment.tracking_number },
        })
      ).body.count,
    ).toBe(0);
    expect((await call(listTrackers, "GET", "/v1/trackers", asB)).body.count).toBe(0);

    // The same number tracked by B is B's own tracker, not A's.
    const own = await call(trackPost, "POST", `/v1/trackers/sandbox/${shipment.tracking_number}`, {
      ...asB,
      params: { id: "sandbox", tracking_number: shipment.tracking_number },
    });
    expect(own.status).toBe(201);
    expect(own.body.id).not.toBe(tid);
    expect(own.body.shipment_id).toBeNull();
  });

  it("answers 404 for another organization's shipment documents, listed or downloaded", async () => {
    const a = await makeOrg("A");
    const b = await makeOrg("B");
    const abroad = await createShipmentFor(a.key, {
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
        commodities: [
          {
            description: "Cotton T-shirt",
            quantity: 2,
            value_amount: 15,
            value_currency: "USD",
            weight: 0.25,
            weight_unit: "KG",
            origin_country: "US",
          },
        ],
      },
    });
    const shipment = (await purchaseFor(a.key, abroad)).body.shipment;
    const sid = shipment.id as string;
    const did = shipment.documents[0].id as string;
    expect(did).toMatch(/^doc_/);
    // B's own shipment, to try A's document id under an id B may read.
    const own = (await purchaseFor(b.key, await createShipmentFor(b.key))).body.shipment.id as string;

    const answers = {
      list: await call(listDocuments, "GET", `/v1/shipments/${sid}/documents`, { key: b.key, params: { id: sid } }),
      download: await call(getDocument, "GET", `/v1/shipments/${sid}/documents/${did}`, {
        key: b.key,
        params: { id: sid, document_id: did },
      }),
      underOwn: await call(getDocument, "GET", `/v1/shipments/${own}/documents/${did}`, {
        key: b.key,
        params: { id: own, document_id: did },
      }),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect({ name, status: res.status, code: res.body.errors?.[0]?.code }).toEqual({
        name,
        status: 404,
        code: "not_found",
      });
    }
    // A still has it.
    const mine = await call(getDocument, "GET", `/v1/shipments/${sid}/documents/${did}`, {
      key: a.key,
      params: { id: sid, document_id: did },
    });
    expect(mine.status).toBe(200);
  });
});
