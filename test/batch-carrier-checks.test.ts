import { describe, expect, it } from "vitest";
import { POST as createBatch } from "@/app/v1/batches/route";
import { GET as getBatch } from "@/app/v1/batches/[id]/route";
import { GET as listConnections } from "@/app/v1/connections/route";
import { DELETE as deleteConnection } from "@/app/v1/connections/[id]/route";
import { runBatch } from "@/lib/batches/run-batch";
import { addConnection, useCarrierEmulator } from "@/test/emulator-helpers";
import { FEDEX_CREDENTIALS } from "@/test/fedex-context";
import { UPS_CREDENTIALS } from "@/test/ups-context";
import { USPS_CREDENTIALS } from "@/test/usps-context";
import { call, makeOrg, systemCtx } from "./helpers";
import { usShipper } from "./factories";

/**
 * The dry run checks each row's recipient against the carrier and service its rate is for (issue 33): a PO Box the
 * carrier does not serve, a street line longer than its label prints. A policy free to choose picks a carrier that
 * can deliver; a row held to one carrier fails, naming the CSV column.
 */

const emulator = useCarrierEmulator();
const shipper = usShipper;
const HEADER = "order,name,street,city,state_code,postal_code,country_code,weight,carrier";
const mapping = {
  reference: "order",
  "recipient.person_name": "name",
  "recipient.address_line1": "street",
  carrier_id: "carrier",
};
// 40 characters: UPS and FedEx print 35 of a street line, USPS 50.
const LONG_STREET = "1234 Extraordinarily Long Boulevard West";

async function drain(batchId: string) {
  const ctx = await systemCtx();
  for (let i = 0; i < 20; i++) {
    const round = await runBatch({ ctx, batchId, maxDurationMs: 120_000 });
    if (!round.more) return round;
  }
  throw new Error("the batch did not settle");
}

type Row = {
  line: number;
  state: string;
  rate: { carrier_id: string; service: string } | null;
  error: { code: string; column: string | null; message: string } | null;
};

describe("a batch row's address checked against its carrier (issue 33)", () => {
  it("refuses a PO Box and a long street for the carriers that cannot take them", { timeout: 300_000 }, async () => {
    expect(LONG_STREET).toHaveLength(40);
    const { key } = await makeOrg();
    // Only the networked carriers: the sandbox (delivers anywhere, prints anything) would be the cheapest pick.
    const listed = await call(listConnections, "GET", "/v1/connections", { key });
    for (const c of listed.body.results as { id: string }[]) {
      expect(
        (await call(deleteConnection, "DELETE", `/v1/connections/${c.id}`, { key, params: { id: c.id } })).status,
      ).toBe(200);
    }
    const config = { batch_calls_per_second: 1000 };
    await addConnection(key, { carrier_name: "ups", carrier_id: "ups-main", credentials: UPS_CREDENTIALS, config });
    await addConnection(key, {
      carrier_name: "fedex",
      carrier_id: "fedex-main",
      credentials: FEDEX_CREDENTIALS,
      config,
    });
    await addConnection(key, { carrier_name: "usps", carrier_id: "usps-main", credentials: USPS_CREDENTIALS, config });
    const csv = [
      HEADER,
      "SO-1,Ann,PO Box 123,Austin,TX,78701,US,2,ups-main", // UPS: no PO Box
      `SO-2,Bob,${LONG_STREET},Austin,TX,78701,US,2,ups-main`, // UPS: 35 characters
      `SO-3,Cy,${LONG_STREET},Austin,TX,78701,US,2,fedex-main`, // FedEx: 35 characters
      "SO-4,Di,PO Box 456,Austin,TX,78701,US,2,fedex-main", // FedEx: a PO Box only by Ground Economy
      "SO-5,Ed,PO Box 789,Austin,TX,78701,US,2,usps-main", // USPS delivers to a PO Box
      `SO-6,Flo,${LONG_STREET},Austin,TX,78701,US,2,usps-main`, // and prints 50
      "SO-7,Gus,7 Elm Street,Austin,TX,78701,US,2,ups-main", // nothing wrong
    ].join("\n");
    const created = await call(createBatch, "POST", "/v1/batches", {
      key,
      body: { csv, shipper, mapping, rate_policy: { kind: "cheapest" } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect((await drain(id)).state).toBe("ready");
    const res = await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } });
    const byLine = new Map<number, Row>(res.body.rows.results.map((r: Row) => [r.line, r]));
    expect(byLine.get(2)).toMatchObject({
      state: "failed",
      error: {
        code: "po_box_not_served",
        column: "street",
        message: expect.stringMatching(/^ups .*does not deliver to a PO Box/),
      },
    });
    for (const [line, carrier] of [
      [3, "ups"],
      [4, "fedex"],
    ] as const) {
      expect(byLine.get(line), `line ${line}`).toMatchObject({
        state: "failed",
        error: {
          code: "line_too_long",
          column: "street",
          message: `${carrier} prints 35 characters of address_line1; this one has 40.`,
        },
      });
    }
    expect(byLine.get(5)).toMatchObject({ state: "failed", error: { code: "po_box_not_served", column: "street" } });
    for (const line of [6, 7]) {
      expect(byLine.get(line), `line ${line}`).toMatchObject({ state: "rated", rate: { carrier_id: "usps-main" } });
    }
    expect(byLine.get(8)).toMatchObject({ state: "rated", rate: { carrier_id: "ups-main" } });
    // Free to choose, the policy passes over the carriers that cannot deliver to a PO Box.

    // Free to choose, the policy passes over the carriers that cannot deliver to a PO Box: the fastest to a street
    // is a courier's, to a PO Box the fastest of those that deliver there.
    const free = await call(createBatch, "POST", "/v1/batches", {
      key,
      body: {
        csv: [HEADER, "SO-8,Hal,PO Box 321,Austin,TX,78701,US,2,", "SO-9,Ivy,9 Elm Street,Austin,TX,78701,US,2,"].join(
          "\n",
        ),
        shipper,
        mapping,
        rate_policy: { kind: "fastest" },
      },
    });
    const freeId = free.body.id as string;
    expect((await drain(freeId)).state).toBe("ready");
    const picked = await call(getBatch, "GET", `/v1/batches/${freeId}`, { key, params: { id: freeId } });
    const [box, street] = picked.body.rows.results as Row[];
    expect(street!.state).toBe("rated");
    expect(["ups-main", "fedex-main"]).toContain(street!.rate!.carrier_id);
    expect(box!.state).toBe("rated");
    expect(box!.rate).toSatisfy(
      (r: { carrier_id: string; service: string }) => r.carrier_id === "usps-main" || r.service === "SMART_POST",
    );
    // Nothing is bought in a dry run.
    expect(emulator.current.calls.filter((c) => c.operation === "ship")).toEqual([]);
  });
});
