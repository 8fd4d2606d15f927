import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { POST as createBatch } from "@/app/v1/batches/route";
import { POST as saveAddress } from "@/app/v1/addresses/route";
import { getDb } from "@/lib/db/client";
import { batches } from "@/lib/db/schema";
import { call, makeOrg } from "./helpers";

const CSV = [
  "order_number,name,address_line1,city,state_code,postal_code,country_code,weight",
  "SO-1,Recipient One,1 Elm Street,Austin,TX,78701,US,2",
].join("\n");
const MAPPING = { reference: "order_number", "recipient.person_name": "name" };

const dock = (label: string, city: string, is_default_sender = false) => ({
  label,
  company_name: "Acme Warehouse",
  address_line1: "500 Industrial Way",
  city,
  state_code: "IL",
  postal_code: "60607",
  country_code: "US",
  is_default_sender,
});

async function save(key: string, body: Record<string, unknown>) {
  const res = await call(saveAddress, "POST", "/v1/addresses", { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

const create = (key: string, extra: Record<string, unknown>) =>
  call(createBatch, "POST", "/v1/batches", { key, body: { csv: CSV, mapping: MAPPING, ...extra } });

async function storedShipper(id: string) {
  const [row] = await (await getDb()).select().from(batches).where(eq(batches.id, id));
  return (row!.defaults as { shipper: { city: string; company_name: string } | null }).shipper;
}

describe("a CSV batch's ship-from from the address book (issue 34, item 4)", () => {
  it("takes the entry named by shipper_address_id, else the default ship-from", async () => {
    const { key } = await makeOrg();
    const named = await save(key, dock("Second dock", "Chicago"));
    await save(key, dock("Main dock", "Chicago", true));

    const byId = await create(key, { shipper_address_id: named });
    expect(byId.status, JSON.stringify(byId.body)).toBe(201);
    expect(await storedShipper(byId.body.id)).toMatchObject({ company_name: "Acme Warehouse", city: "Chicago" });

    const byDefault = await create(key, {});
    expect(byDefault.status, JSON.stringify(byDefault.body)).toBe(201);
    expect(await storedShipper(byDefault.body.id)).toMatchObject({ company_name: "Acme Warehouse" });
  });

  it("refuses an unknown entry, another organization's, both ways at once, and neither without a default", async () => {
    const mine = await makeOrg();
    const theirs = await makeOrg();
    const their = await save(theirs.key, dock("Their dock", "Chicago", true));

    for (const id of ["adr_nope", their]) {
      const res = await create(mine.key, { shipper_address_id: id });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe("shipper_address_id");
    }
    const both = await create(mine.key, {
      shipper_address_id: their,
      shipper: {
        address_line1: "1 Main St",
        city: "Chicago",
        state_code: "IL",
        postal_code: "60607",
        country_code: "US",
      },
    });
    expect(both.status).toBe(400);
    expect(both.body.errors.map((e: { field: string }) => e.field)).toContain("shipper_address_id");

    // `theirs` has a default ship-from; `mine` has none, and never borrows another organization's.
    const neither = await create(mine.key, {});
    expect(neither.status).toBe(400);
    expect(neither.body.errors[0].field).toBe("shipper");
  });
});
