import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { GET as list, POST as create } from "@/app/v1/connections/route";
import { DELETE as remove, GET as get, PATCH as patch } from "@/app/v1/connections/[id]/route";
import { getDb } from "@/lib/db/client";
import { carrierConnections, carrierPacing } from "@/lib/db/schema";
import { batchPaceKey, paceShared } from "@/lib/connections/pace";
import { decryptJson } from "@/lib/connections/crypto";
import { Connection } from "@/lib/schemas/connection";
import { call, makeOrg } from "./helpers";

const SECRET = "super-secret-api-key-123";

describe("carrier connections", () => {
  it("gives every new organization an active sandbox connection in test mode", async () => {
    const { key } = await makeOrg();
    const res = await call(list, "GET", "/v1/connections", { key });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    const [conn] = res.body.results;
    expect(Connection.strict().parse(conn)).toBeTruthy();
    expect(conn).toMatchObject({ carrier_name: "sandbox", carrier_id: "sandbox", test_mode: true, active: true });
    expect(conn.id).toMatch(/^car_[0-9a-f]{32}$/);
    expect(conn.capabilities).toEqual(expect.arrayContaining(["rates", "ship", "void", "track"]));
  });

  it("creates a connection with credentials encrypted at rest and never returned", async () => {
    const { key } = await makeOrg();
    const res = await call(create, "POST", "/v1/connections", {
      key,
      body: {
        carrier_name: "sandbox",
        carrier_id: "sbx-2",
        credentials: { api_key: SECRET },
        config: { latency_ms: 5 },
      },
    });
    expect(res.status).toBe(201);
    expect(Connection.strict().parse(res.body)).toBeTruthy();
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    expect(res.body).not.toHaveProperty("credentials");
    expect(res.body.config).toEqual({ latency_ms: 5 });

    const db = await getDb();
    const [row] = await db.select().from(carrierConnections).where(eq(carrierConnections.id, res.body.id));
    expect(row!.credentialsEncrypted).toMatch(/^v1\./);
    expect(row!.credentialsEncrypted).not.toContain(SECRET);
    expect(decryptJson(row!.credentialsEncrypted!, row!.id)).toEqual({ api_key: SECRET });
    // Bound to its row: the same ciphertext does not open under another connection's id.
    expect(() => decryptJson(row!.credentialsEncrypted!, "car_" + "0".repeat(32))).toThrow();

    for (const body of [
      (await call(get, "GET", "", { key, params: { id: res.body.id } })).body,
      (await call(list, "GET", "/v1/connections", { key })).body,
    ]) {
      expect(JSON.stringify(body)).not.toContain(SECRET);
      expect(JSON.stringify(body)).not.toContain(row!.credentialsEncrypted!);
    }
  });

  it("lists every validation problem with its field path and stores nothing", async () => {
    const { key } = await makeOrg();
    const res = await call(create, "POST", "/v1/connections", {
      key,
      body: { carrier_name: "nope", carrier_id: "has space", test_mode: "yes" },
    });
    expect(res.status).toBe(400);
    const fields = res.body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(["carrier_id", "carrier_name", "test_mode"]);
    for (const e of res.body.errors) expect(e.code).toBe("validation_error");

    const creds = await call(create, "POST", "/v1/connections", {
      key,
      body: {
        carrier_name: "sandbox",
        carrier_id: "x",
        credentials: { api_key: 5, extra: "?" },
        config: { latency_ms: -1, deadline_ms: 1 },
      },
    });
    expect(creds.status).toBe(400);
    expect(creds.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      ["config.deadline_ms", "config.latency_ms", "credentials.api_key", "credentials.extra"].sort(),
    );
    expect((await call(list, "GET", "/v1/connections", { key })).body.count).toBe(1);
  });

  it("keeps carrier_id unique per organization but not across organizations", async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const first = await call(create, "POST", "/v1/connections", {
      key: a.key,
      body: { carrier_name: "sandbox", carrier_id: "main" },
    });
    expect(first.status).toBe(201);
    const dup = await call(create, "POST", "/v1/connections", {
      key: a.key,
      body: { carrier_name: "sandbox", carrier_id: "main" },
    });
    expect(dup.status).toBe(400);
    expect(dup.body.errors[0]).toMatchObject({ code: "validation_error", field: "carrier_id" });
    const other = await call(create, "POST", "/v1/connections", {
      key: b.key,
      body: { carrier_name: "sandbox", carrier_id: "main" },
    });
    expect(other.status).toBe(201);
  });

  it("answers 404 for another organization's connection on every verb and changes nothing", async () => {
    const owner = await makeOrg();
    const intruder = await makeOrg();
    const { body: conn } = await call(create, "POST", "/v1/connections", {
      key: owner.key,
      body: { carrier_name: "sandbox", carrier_id: "mine" },
    });
    const params = { id: conn.id };
    expect((await call(get, "GET", "", { key: intruder.key, params })).status).toBe(404);
    const p = await call(patch, "PATCH", "", { key: intruder.key, params, body: { active: false } });
    expect(p.status).toBe(404);
    expect(p.body.errors[0].code).toBe("not_found");
    expect((await call(remove, "DELETE", "", { key: intruder.key, params })).status).toBe(404);
    const still = await call(get, "GET", "", { key: owner.key, params });
    expect(still.status).toBe(200);
    expect(still.body.active).toBe(true);
  });

  it("updates, paginates and deletes", async () => {
    const { key } = await makeOrg();
    const { body: conn } = await call(create, "POST", "/v1/connections", {
      key,
      body: { carrier_name: "sandbox", carrier_id: "one" },
    });
    const updated = await call(patch, "PATCH", "", {
      key,
      params: { id: conn.id },
      body: { display_name: "Renamed", active: false, config: { latency_ms: 10 } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      display_name: "Renamed",
      active: false,
      config: { latency_ms: 10 },
      carrier_id: "one",
    });

    const page1 = await call(list, "GET", "/v1/connections", { key, query: { limit: "1" } });
    expect(page1.body.count).toBe(2);
    expect(page1.body.results).toHaveLength(1);
    expect(page1.body.next).toBe("/v1/connections?limit=1&offset=1");
    expect(page1.body.previous).toBeNull();
    const inactive = await call(list, "GET", "/v1/connections", { key, query: { active: "false" } });
    expect(inactive.body.results.map((c: { id: string }) => c.id)).toEqual([conn.id]);

    // A batch paced its calls: the connection's budget row goes with it.
    const db = await getDb();
    await paceShared(db, batchPaceKey(conn.id), 1000);
    expect((await call(remove, "DELETE", "", { key, params: { id: conn.id } })).status).toBe(200);
    expect((await call(get, "GET", "", { key, params: { id: conn.id } })).status).toBe(404);
    expect(
      await db
        .select()
        .from(carrierPacing)
        .where(eq(carrierPacing.key, batchPaceKey(conn.id))),
    ).toEqual([]);
    const bad = await call(get, "GET", "", { key, params: { id: "nope" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("id");
    // Path and body problems come back in one answer.
    const both = await call(patch, "PATCH", "", { key, params: { id: "nope" }, body: { active: "yes" } });
    expect(both.body.errors.map((e: { field: string }) => e.field)).toEqual(["id", "active"]);
  });
});
