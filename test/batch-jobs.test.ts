import { describe, expect, it } from "vitest";
import { InngestTestEngine } from "@inngest/test";
import { POST as createBatch } from "@/app/v1/batches/route";
import { POST as purchase } from "@/app/v1/batches/[id]/purchase/route";
import { GET as getBatch } from "@/app/v1/batches/[id]/route";
import { runBatchFunction } from "@/lib/jobs/run-batches";
import { createShipmentFor } from "./factories";
import { call, makeOrg } from "./helpers";

/** The Inngest function `run-batch` on a real database: its steps take a batch through the dry run, then the purchase. */
describe("run-batch (Inngest)", () => {
  it("works the dry run to ready, then the confirmed purchase to completed", { timeout: 60_000 }, async () => {
    const { key } = await makeOrg();
    const chosen = [await createShipmentFor(key), await createShipmentFor(key)];
    const created = await call(createBatch, "POST", "/v1/batches", {
      key,
      body: { shipment_ids: chosen.map((s) => s.id) },
    });
    const id = created.body.id as string;
    const events = [{ name: "shipwell/batch.run", data: { batch_id: id } }] as [
      { name: string; data: Record<string, unknown> },
    ];

    const dry = await new InngestTestEngine({ function: runBatchFunction, events }).execute();
    expect(dry.result).toMatchObject({ batch_id: id, state: "ready", worked: 2 });
    const stepIds = (dry.ctx.step.run as unknown as { mock: { calls: [string][] } }).mock.calls.map((c) => c[0]);
    expect(new Set(stepIds)).toEqual(new Set(["round-0-0", "round-0-1"]));

    expect((await call(purchase, "POST", `/v1/batches/${id}/purchase`, { key, params: { id } })).status).toBe(200);
    const bought = await new InngestTestEngine({ function: runBatchFunction, events }).execute();
    expect(bought.result).toMatchObject({ batch_id: id, state: "completed", worked: 2 });
    const got = await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } });
    expect(got.body.counts).toMatchObject({ purchased: 2 });

    // A run for a batch with nothing to do (finished) ends at once.
    const idle = await new InngestTestEngine({ function: runBatchFunction, events }).execute();
    expect(idle.result).toMatchObject({ state: "completed", worked: 0 });
  });
});
