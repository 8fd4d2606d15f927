import { describe, expect, it } from "vitest";
import { GET as listBatches, POST as createBatch } from "@/app/v1/batches/route";
import { GET as getBatch } from "@/app/v1/batches/[id]/route";
import { POST as purchase } from "@/app/v1/batches/[id]/purchase/route";
import { POST as retry } from "@/app/v1/batches/[id]/retry/route";
import { POST as cancel } from "@/app/v1/batches/[id]/cancel/route";
import { POST as decisions } from "@/app/v1/batches/[id]/decisions/route";
import { GET as failedCsv } from "@/app/v1/batches/[id]/failed.csv/route";
import { GET as labelsPdf } from "@/app/v1/batches/[id]/labels.pdf/route";
import { GET as labelsZpl } from "@/app/v1/batches/[id]/labels.zpl/route";
import { GET as packingList } from "@/app/v1/batches/[id]/packing-list.pdf/route";
import { runBatch } from "@/lib/batches/run-batch";
import { createShipmentFor } from "./factories";
import { call, makeOrg, systemCtx } from "./helpers";

async function drain(batchId: string) {
  const ctx = await systemCtx();
  for (let i = 0; i < 20; i++) {
    const round = await runBatch({ ctx, batchId, maxDurationMs: 60_000 });
    if (!round.more) return round;
  }
  throw new Error("the batch did not settle");
}

describe("batches of stored shipments, and tenancy on every batch route", () => {
  it(
    "buys a selection of shipments as a batch; another organization finds none of it",
    { timeout: 120_000 },
    async () => {
      const a = await makeOrg("A");
      const b = await makeOrg("B");
      const chosen = [
        await createShipmentFor(a.key, { label_type: "ZPL" }),
        await createShipmentFor(a.key),
        await createShipmentFor(a.key),
      ];
      const created = await call(createBatch, "POST", "/v1/batches", {
        key: a.key,
        body: { shipment_ids: chosen.map((s) => s.id), rate_policy: { kind: "fastest" } },
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect((await drain(id)).state).toBe("ready");
      expect((await call(purchase, "POST", `/v1/batches/${id}/purchase`, { key: a.key, params: { id } })).status).toBe(
        200,
      );
      expect((await drain(id)).state).toBe("completed");
      const mine = await call(getBatch, "GET", `/v1/batches/${id}`, { key: a.key, params: { id } });
      expect(mine.body.counts.purchased).toBe(3);
      expect(mine.body.rows.results.map((r: { shipment_id: string }) => r.shipment_id)).toEqual(
        chosen.map((s) => s.id),
      );

      // Nothing dropped silently: the ZPL label is listed as not in the PDF, and the PDF labels as not in the ZPL.
      const pdf = await call(labelsPdf, "GET", `/v1/batches/${id}/labels.pdf`, { key: a.key, params: { id } });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get("shipwell-not-included")).toMatch(/^1: a ZPL label cannot be drawn in a PDF/);
      const zpl = await call(labelsZpl, "GET", `/v1/batches/${id}/labels.zpl`, { key: a.key, params: { id } });
      expect(zpl.status).toBe(200);
      expect(String(zpl.body)).toMatch(/^\^XA/);
      expect(zpl.headers.get("shipwell-not-included")).toMatch(/^2: a PDF label is not ZPL.*; 3: /);
      // A finished batch has nothing to retry or cancel.
      expect((await call(retry, "POST", `/v1/batches/${id}/retry`, { key: a.key, params: { id } })).status).toBe(409);
      expect((await call(cancel, "POST", `/v1/batches/${id}/cancel`, { key: a.key, params: { id } })).status).toBe(409);

      const asB = { key: b.key, params: { id } };
      const answers = {
        get: await call(getBatch, "GET", `/v1/batches/${id}`, asB),
        purchase: await call(purchase, "POST", `/v1/batches/${id}/purchase`, asB),
        retry: await call(retry, "POST", `/v1/batches/${id}/retry`, asB),
        cancel: await call(cancel, "POST", `/v1/batches/${id}/cancel`, asB),
        decisions: await call(decisions, "POST", `/v1/batches/${id}/decisions`, {
          ...asB,
          body: { decision: "approve", lines: [1] },
        }),
        failed: await call(failedCsv, "GET", `/v1/batches/${id}/failed.csv`, asB),
        pdf: await call(labelsPdf, "GET", `/v1/batches/${id}/labels.pdf`, asB),
        zpl: await call(labelsZpl, "GET", `/v1/batches/${id}/labels.zpl`, asB),
        packing: await call(packingList, "GET", `/v1/batches/${id}/packing-list.pdf`, asB),
      };
      for (const [name, res] of Object.entries(answers)) {
        expect(res.status, name).toBe(404);
        expect(res.body.errors[0].code, name).toBe("not_found");
      }
      const list = await call(listBatches, "GET", "/v1/batches", { key: b.key });
      expect(list.body).toMatchObject({ count: 0, results: [] });
      // Another organization's shipments cannot be put in a batch either.
      const stolen = await call(createBatch, "POST", "/v1/batches", {
        key: b.key,
        body: { shipment_ids: [chosen[1]!.id] },
      });
      expect(stolen.status).toBe(400);
      expect(stolen.body.errors[0].field).toBe("shipment_ids");
    },
  );

  it("takes CSV text in JSON and text/csv with its options in a header; cancels before the purchase", async () => {
    const { key } = await makeOrg();
    const shipper = {
      address_line1: "1 Way",
      city: "Chicago",
      state_code: "IL",
      postal_code: "60607",
      country_code: "US",
    };
    const csv =
      'postal_code;country_code;person_name;address_line1;city;state_code;weight\n78701;US;Ann;"1 Elm; Apt 2";Austin;TX;1\n';
    const json = await call(createBatch, "POST", "/v1/batches", { key, body: { csv, shipper } });
    expect(json.status).toBe(201);
    expect(json.body.row_count).toBe(1);
    const raw = await call(createBatch, "POST", "/v1/batches", {
      key,
      rawBody: csv,
      headers: { "Content-Type": "text/csv", "Shipwell-Options": JSON.stringify({ shipper }) },
    });
    expect(raw.status).toBe(201);
    const id = raw.body.id as string;
    expect((await drain(id)).state).toBe("ready");
    const got = await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } });
    expect(got.body.counts).toMatchObject({ rated: 1, failed: 0 });
    const cancelled = await call(cancel, "POST", `/v1/batches/${id}/cancel`, { key, params: { id } });
    expect(cancelled.body.state).toBe("cancelled");
    expect((await call(purchase, "POST", `/v1/batches/${id}/purchase`, { key, params: { id } })).status).toBe(409);
    // No shipper for CSV rows, or no rows at all: a 400 naming what to give.
    const noShipper = await call(createBatch, "POST", "/v1/batches", { key, body: { csv } });
    expect(noShipper.body.errors[0].field).toBe("shipper");
    const noHeader = await call(createBatch, "POST", "/v1/batches", { key, body: { csv: "", shipper } });
    expect(noHeader.status).toBe(400);
  });
});
