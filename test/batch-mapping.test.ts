import { describe, expect, it } from "vitest";
import { GET, PUT } from "@/app/v1/batches/mapping/route";
import { call, makeOrg } from "./helpers";

describe("the saved CSV column mapping (GET/PUT /v1/batches/mapping)", () => {
  it("is empty at first, replaced whole by PUT, and each organization sees only its own", async () => {
    const a = await makeOrg("A");
    const b = await makeOrg("B");
    const empty = await call(GET, "GET", "/v1/batches/mapping", { key: a.key });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ mapping: {}, updated_at: null });

    const first = { "recipient.postal_code": "Zip", "parcel.weight": "Weight (kg)", reference: "Order" };
    const saved = await call(PUT, "PUT", "/v1/batches/mapping", { key: a.key, body: { mapping: first } });
    expect(saved.status).toBe(200);
    expect(saved.body.mapping).toEqual(first);
    expect(saved.body.updated_at).toMatch(/^\d{4}-\d{2}-\d{2} /);

    // A second save replaces the first, it does not merge.
    const second = { "recipient.city": "Town" };
    await call(PUT, "PUT", "/v1/batches/mapping", { key: a.key, body: { mapping: second } });
    expect((await call(GET, "GET", "/v1/batches/mapping", { key: a.key })).body.mapping).toEqual(second);

    // Tenancy: B sees none of A's, and B's own save leaves A's alone.
    expect((await call(GET, "GET", "/v1/batches/mapping", { key: b.key })).body).toEqual({
      mapping: {},
      updated_at: null,
    });
    await call(PUT, "PUT", "/v1/batches/mapping", { key: b.key, body: { mapping: { reference: "Ref" } } });
    expect((await call(GET, "GET", "/v1/batches/mapping", { key: a.key })).body.mapping).toEqual(second);
    expect((await call(GET, "GET", "/v1/batches/mapping", { key: b.key })).body.mapping).toEqual({ reference: "Ref" });
  });

  it("refuses an unknown field or an empty header with a 400 naming it", async () => {
    const { key } = await makeOrg();
    const unknown = await call(PUT, "PUT", "/v1/batches/mapping", {
      key,
      body: { mapping: { "recipient.shoe_size": "Shoe" } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].code).toBe("validation_error");
    const blank = await call(PUT, "PUT", "/v1/batches/mapping", { key, body: { mapping: { reference: " " } } });
    expect(blank.status).toBe(400);
    expect(blank.body.errors[0].field).toMatch(/^mapping/);
    const none = await call(GET, "GET", "/v1/batches/mapping", { key });
    expect(none.body.mapping).toEqual({});
  });
});
