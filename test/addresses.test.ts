import { describe, expect, it } from "vitest";
import { DELETE as deleteAddress, GET as getAddress, PATCH as updateAddress } from "@/app/v1/addresses/[id]/route";
import { GET as listAddresses, POST as createAddress } from "@/app/v1/addresses/route";
import { GET as listAudit } from "@/app/v1/audit_events/route";
import { POST as createShipment } from "@/app/v1/shipments/route";
import { call, makeOrg } from "./helpers";

/** The address book (org-scoped, searchable, one default ship-from) and `validate` on a new shipment. */

const austin = {
  person_name: "Ada Lovelace",
  company_name: "Analytical Engines",
  address_line1: "1100 Congress Ave",
  city: "Austin",
  state_code: "TX",
  postal_code: "78701",
  country_code: "US",
};
const denver = {
  ...austin,
  person_name: "Grace Hopper",
  company_name: null,
  address_line1: "200 E Colfax Ave",
  city: "Denver",
  state_code: "CO",
  postal_code: "80203",
};
const byId = (id: string) => ({ params: { id } });

async function save(key: string, body: Record<string, unknown>) {
  const res = await call(createAddress, "POST", "/v1/addresses", { key, body });
  expect(res.status).toBe(201);
  return res.body;
}

async function auditOf(key: string, action: string) {
  const res = await call(listAudit, "GET", "/v1/audit_events", { key, query: { action, limit: "100" } });
  expect(res.status).toBe(200);
  return res.body.results as { resource: { id: string }; summary: Record<string, unknown> }[];
}

describe("the address book", () => {
  it("creates, searches, reads, changes and deletes an organization's addresses", async () => {
    const { key } = await makeOrg();
    const a = await save(key, { ...austin, label: "Warehouse", is_default_sender: true });
    expect(a).toMatchObject({
      id: expect.stringMatching(/^adb_/),
      object_type: "address",
      is_default_sender: true,
      label: "Warehouse",
    });
    const d = await save(key, denver);

    const search = async (q: string) =>
      (await call(listAddresses, "GET", "/v1/addresses", { key, query: { q } })).body.results.map(
        (r: { id: string }) => r.id,
      );
    expect(await search("hopper")).toEqual([d.id]);
    expect(await search("787")).toEqual([a.id]);
    expect(await search("warehouse")).toEqual([a.id]);
    expect(await search("%")).toEqual([]);
    const all = await call(listAddresses, "GET", "/v1/addresses", { key });
    expect(all.body).toMatchObject({ count: 2, results: [{ id: d.id }, { id: a.id }] });

    const changed = await call(updateAddress, "PATCH", `/v1/addresses/${d.id}`, {
      key,
      ...byId(d.id),
      body: { city: "Boulder", postal_code: "80302" },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      city: "Boulder",
      postal_code: "80302",
      address_line1: "200 E Colfax Ave",
      person_name: "Grace Hopper",
    });
    expect(await search("boulder")).toEqual([d.id]);
    // A PATCH that sets nothing changes nothing: the address as it is, and no audit row.
    const nothing = await call(updateAddress, "PATCH", `/v1/addresses/${d.id}`, { key, ...byId(d.id), body: {} });
    expect(nothing.status).toBe(200);
    expect(nothing.body).toEqual(changed.body);

    expect((await call(getAddress, "GET", `/v1/addresses/${a.id}`, { key, ...byId(a.id) })).body).toEqual(a);
    expect((await call(deleteAddress, "DELETE", `/v1/addresses/${a.id}`, { key, ...byId(a.id) })).status).toBe(200);
    expect((await call(getAddress, "GET", `/v1/addresses/${a.id}`, { key, ...byId(a.id) })).status).toBe(404);

    const actions = await Promise.all(
      ["address.created", "address.updated", "address.deleted"].map((x) => auditOf(key, x)),
    );
    expect(actions.map((rows) => rows.length)).toEqual([2, 1, 1]);
    expect(actions[1]![0]!.summary).toEqual({ fields: ["city", "postal_code"] });
    // The audit log keeps facts, not the address.
    expect(JSON.stringify(actions)).not.toMatch(/Hopper|Colfax|Boulder/);
  });

  it("keeps one default ship-from: setting it moves it", async () => {
    const { key } = await makeOrg();
    const a = await save(key, { ...austin, is_default_sender: true });
    const d = await save(key, { ...denver, is_default_sender: true });
    const defaults = await call(listAddresses, "GET", "/v1/addresses", { key, query: { is_default_sender: "true" } });
    expect(defaults.body.results.map((r: { id: string }) => r.id)).toEqual([d.id]);
    await call(updateAddress, "PATCH", `/v1/addresses/${a.id}`, {
      key,
      ...byId(a.id),
      body: { is_default_sender: true },
    });
    const after = await call(listAddresses, "GET", "/v1/addresses", { key, query: { is_default_sender: "true" } });
    expect(after.body.results.map((r: { id: string }) => r.id)).toEqual([a.id]);
  });

  it("is the organization's own: another's address is not found and not listed", async () => {
    const mine = await makeOrg();
    const theirs = await makeOrg();
    const a = await save(mine.key, austin);
    const key = theirs.key;
    expect((await call(getAddress, "GET", `/v1/addresses/${a.id}`, { key, ...byId(a.id) })).status).toBe(404);
    expect(
      (await call(updateAddress, "PATCH", `/v1/addresses/${a.id}`, { key, ...byId(a.id), body: { city: "X" } })).status,
    ).toBe(404);
    expect((await call(deleteAddress, "DELETE", `/v1/addresses/${a.id}`, { key, ...byId(a.id) })).status).toBe(404);
    expect((await call(listAddresses, "GET", "/v1/addresses", { key, query: { q: "lovelace" } })).body.count).toBe(0);
    expect((await call(getAddress, "GET", `/v1/addresses/${a.id}`, { key: mine.key, ...byId(a.id) })).body.city).toBe(
      "Austin",
    );
  });

  it("refuses an address without a street and a malformed id", async () => {
    const { key } = await makeOrg();
    const bad = await call(createAddress, "POST", "/v1/addresses", { key, body: { ...austin, address_line1: " " } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("address_line1");
    expect((await call(getAddress, "GET", "/v1/addresses/nope", { key, ...byId("nope") })).status).toBe(400);
  });

  it("holds a state code to 10 characters as stored, after upper-casing (ﬃ is FFI, ß is SS)", async () => {
    const { key } = await makeOrg();
    const long = "ﬃ".repeat(10);
    const created = await call(createAddress, "POST", "/v1/addresses", { key, body: { ...austin, state_code: long } });
    expect(created.status, JSON.stringify(created.body)).toBe(400);
    expect(created.body.errors[0].field).toBe("state_code");
    const a = await save(key, austin);
    const changed = await call(updateAddress, "PATCH", `/v1/addresses/${a.id}`, {
      key,
      ...byId(a.id),
      body: { state_code: "ß".repeat(6) },
    });
    expect(changed.status).toBe(400);
    expect(
      (await call(listAddresses, "GET", "/v1/addresses", { key })).body.results.map(
        (r: { state_code: string }) => r.state_code,
      ),
    ).toEqual(["TX"]);
    // What does fit is upper-cased as before.
    expect((await save(key, { ...austin, state_code: "ßtx" })).state_code).toBe("SSTX");
  });
});

describe("validate on POST /v1/shipments", () => {
  const parcels = [{ weight: 1, weight_unit: "KG" }];

  it("refuses Austin, TX 60607 with the field named, and stores nothing", async () => {
    const { key } = await makeOrg();
    const res = await call(createShipment, "POST", "/v1/shipments", {
      key,
      body: { shipper: denver, recipient: { ...austin, postal_code: "60607" }, parcels, validate: true },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        code: "address_invalid",
        field: "recipient.postal_code",
        message: expect.stringContaining("postal_code_state_mismatch"),
      },
    ]);
    expect(await auditOf(key, "shipment.created")).toEqual([]);
  });

  it("ships anyway with validate: false, and the audit log records the objection", async () => {
    const { key } = await makeOrg();
    const res = await call(createShipment, "POST", "/v1/shipments", {
      key,
      body: {
        shipper: denver,
        recipient: { ...austin, postal_code: "60607", person_name: null, company_name: null },
        parcels,
        validate: false,
      },
    });
    expect(res.status).toBe(201);
    // Nothing was changed on the way.
    expect(res.body.recipient).toMatchObject({ postal_code: "60607", city: "Austin" });
    const [row] = await auditOf(key, "shipment.created");
    expect(row!.summary).toMatchObject({
      address_check: "overridden",
      address_problems: ["recipient.person_name:name_required", "recipient.postal_code:postal_code_state_mismatch"],
    });
  });

  it("goes ahead with validate: true when both addresses pass", async () => {
    const { key } = await makeOrg();
    const res = await call(createShipment, "POST", "/v1/shipments", {
      key,
      body: { shipper: denver, recipient: austin, parcels, validate: true },
    });
    expect(res.status).toBe(201);
    const [row] = await auditOf(key, "shipment.created");
    expect(row!.summary).toMatchObject({ address_check: "validated" });
  });
});
