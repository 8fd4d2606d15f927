import { beforeEach, describe, expect, it } from "vitest";
import { GET as listAudit } from "@/app/v1/audit_events/route";
import { GET as listConnections } from "@/app/v1/connections/route";
import { DELETE as deletePreset, GET as getPreset, PATCH as updatePreset } from "@/app/v1/parcel_presets/[id]/route";
import { GET as listPresets, POST as createPreset } from "@/app/v1/parcel_presets/route";
import { GET as getRule, PUT as putRule } from "@/app/v1/rate_rule/route";
import { resetSignInLimits } from "@/lib/api/auth-endpoint";
import { addMember } from "@/lib/auth/memberships";
import { getDb } from "@/lib/db/client";
import { parcelPresets } from "@/lib/db/schema";
import { MAX_PARCEL_PRESETS } from "@/lib/orgs/parcel-presets/create-parcel-preset";
import { call, makeOrg, systemCtx } from "./helpers";
import { ORIGIN, newAccount, signUp } from "./session-helpers";

/** Parcel presets and the rate rule: an organization's own, changed by owners and admins, read by any member. */

const small = { name: "Small box", length: 8, width: 6, height: 4, dimension_unit: "in" };
const mailer = {
  name: "Mailer",
  length: 30,
  width: 22,
  height: 3,
  dimension_unit: "CM",
  weight: 120,
  weight_unit: "g",
};
const byId = (id: string) => ({ params: { id } });

async function save(key: string, body: Record<string, unknown>) {
  const res = await call(createPreset, "POST", "/v1/parcel_presets", { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function auditOf(key: string, action: string) {
  const res = await call(listAudit, "GET", "/v1/audit_events", { key, query: { action, limit: "100" } });
  return res.body.results as { resource: { id: string }; summary: Record<string, unknown> }[];
}

const names = async (key: string) =>
  (await call(listPresets, "GET", "/v1/parcel_presets", { key })).body.results.map((p: { name: string }) => p.name);

describe("parcel presets", () => {
  it("creates, lists (default first), changes and deletes, each change in the audit log", async () => {
    const { key } = await makeOrg();
    const a = await save(key, small);
    expect(a).toMatchObject({
      id: expect.stringMatching(/^pps_/),
      object_type: "parcel_preset",
      dimension_unit: "IN",
      weight: null,
      weight_unit: null,
      is_default: false,
    });
    const m = await save(key, { ...mailer, is_default: true });
    expect(m).toMatchObject({ weight: 120, weight_unit: "G", is_default: true });
    expect(await names(key)).toEqual(["Mailer", "Small box"]);

    // Making the small box the default takes it off the mailer.
    const changed = await call(updatePreset, "PATCH", `/v1/parcel_presets/${a.id}`, {
      key,
      ...byId(a.id),
      body: { height: 5, is_default: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ height: 5, length: 8, name: "Small box", is_default: true });
    expect(await names(key)).toEqual(["Small box", "Mailer"]);
    const mailerNow = await call(getPreset, "GET", `/v1/parcel_presets/${m.id}`, { key, ...byId(m.id) });
    expect(mailerNow.body.is_default).toBe(false);

    // The weight goes with its unit.
    const cleared = await call(updatePreset, "PATCH", `/v1/parcel_presets/${m.id}`, {
      key,
      ...byId(m.id),
      body: { weight: null, weight_unit: null },
    });
    expect(cleared.body).toMatchObject({ weight: null, weight_unit: null, length: 30 });
    // A PATCH that sets nothing changes nothing: the preset as it is, and no audit row.
    const nothing = await call(updatePreset, "PATCH", `/v1/parcel_presets/${m.id}`, { key, ...byId(m.id), body: {} });
    expect(nothing.status).toBe(200);
    expect(nothing.body).toEqual(cleared.body);

    const gone = await call(deletePreset, "DELETE", `/v1/parcel_presets/${a.id}`, { key, ...byId(a.id) });
    expect(gone.body).toMatchObject({ id: a.id, height: 5 });
    expect((await call(getPreset, "GET", `/v1/parcel_presets/${a.id}`, { key, ...byId(a.id) })).status).toBe(404);
    expect(await names(key)).toEqual(["Mailer"]);

    const actions = await Promise.all(
      ["parcel_preset.created", "parcel_preset.updated", "parcel_preset.deleted"].map((x) => auditOf(key, x)),
    );
    expect(actions.map((rows) => rows.length)).toEqual([2, 2, 1]);
    expect(actions[1]!.map((r) => r.summary)).toEqual([
      { fields: ["weight", "weight_unit"] },
      { fields: ["height", "is_default"] },
    ]);
  });

  it("refuses bad presets with the field named, and changes nothing", async () => {
    const { key } = await makeOrg();
    const bad = async (body: Record<string, unknown>) => {
      const res = await call(createPreset, "POST", "/v1/parcel_presets", { key, body });
      expect(res.status).toBe(400);
      return res.body.errors.map((e: { field: string }) => e.field);
    };
    expect(await bad({ ...small, name: " " })).toEqual(["name"]);
    expect(await bad({ ...small, length: 0 })).toEqual(["length"]);
    expect(await bad({ ...small, dimension_unit: "FT" })).toEqual(["dimension_unit"]);
    expect(await bad({ ...small, weight: 2 })).toEqual(["weight_unit"]);
    expect(await bad({ ...small, weight_unit: "KG" })).toEqual(["weight"]);
    const a = await save(key, small);
    const half = await call(updatePreset, "PATCH", `/v1/parcel_presets/${a.id}`, {
      key,
      ...byId(a.id),
      body: { weight: 3 },
    });
    expect(half.status).toBe(400);
    expect(half.body.errors[0].field).toBe("weight_unit");
    expect((await call(getPreset, "GET", "/v1/parcel_presets/nope", { key, ...byId("nope") })).status).toBe(400);
    expect(await names(key)).toEqual(["Small box"]);
  });

  it("keeps at most 100 per organization", async () => {
    const { key, orgId } = await makeOrg();
    const db = await getDb();
    await db.insert(parcelPresets).values(
      Array.from({ length: MAX_PARCEL_PRESETS - 1 }, (_, i) => ({
        id: `pps_${orgId}_${i}`,
        orgId,
        name: `Box ${i}`,
        length: 1,
        width: 1,
        height: 1,
        dimensionUnit: "IN",
      })),
    );
    await save(key, small);
    const over = await call(createPreset, "POST", "/v1/parcel_presets", { key, body: small });
    expect(over.status).toBe(409);
    expect(over.body.errors[0]).toMatchObject({ code: "state_conflict", message: expect.stringMatching(/100/) });
    expect((await call(listPresets, "GET", "/v1/parcel_presets", { key })).body.count).toBe(MAX_PARCEL_PRESETS);
  });

  it("is the organization's own: another's preset is not found and not listed", async () => {
    const mine = await makeOrg();
    const theirs = await makeOrg();
    const a = await save(mine.key, { ...small, is_default: true });
    const key = theirs.key;
    const path = `/v1/parcel_presets/${a.id}`;
    expect((await call(getPreset, "GET", path, { key, ...byId(a.id) })).status).toBe(404);
    expect((await call(updatePreset, "PATCH", path, { key, ...byId(a.id), body: { name: "X" } })).status).toBe(404);
    expect((await call(deletePreset, "DELETE", path, { key, ...byId(a.id) })).status).toBe(404);
    expect((await call(listPresets, "GET", "/v1/parcel_presets", { key })).body.count).toBe(0);
    // Their default does not take mine off.
    await save(key, { ...small, is_default: true });
    expect((await call(getPreset, "GET", path, { key: mine.key, ...byId(a.id) })).body).toMatchObject({
      name: "Small box",
      is_default: true,
    });
  });
});

describe("the rate rule", () => {
  it("is cheapest until saved; a fixed rule needs its connection and service", async () => {
    const { key } = await makeOrg();
    expect((await call(getRule, "GET", "/v1/rate_rule", { key })).body).toEqual({
      kind: "cheapest",
      carrier_id: null,
      service: null,
      updated_at: null,
    });
    const half = await call(putRule, "PUT", "/v1/rate_rule", { key, body: { kind: "fixed", service: "SBX_2DAY" } });
    expect(half.status).toBe(400);
    expect(half.body.errors.map((e: { field: string }) => e.field)).toEqual(["carrier_id"]);
    const fixed = await call(putRule, "PUT", "/v1/rate_rule", {
      key,
      body: { kind: "fixed", carrier_id: "sandbox", service: "SBX_2DAY" },
    });
    expect(fixed.body).toMatchObject({ kind: "fixed", carrier_id: "sandbox", service: "SBX_2DAY" });
    // Another kind drops the fixed service.
    const fastest = await call(putRule, "PUT", "/v1/rate_rule", {
      key,
      body: { kind: "fastest", carrier_id: "sandbox", service: "SBX_2DAY" },
    });
    expect(fastest.body).toMatchObject({ kind: "fastest", carrier_id: null, service: null });
    expect((await call(getRule, "GET", "/v1/rate_rule", { key })).body.kind).toBe("fastest");
    expect((await auditOf(key, "rate_rule.updated")).map((r) => r.summary.kind)).toEqual(["fastest", "fixed"]);

    const other = await makeOrg();
    expect((await call(getRule, "GET", "/v1/rate_rule", { key: other.key })).body.kind).toBe("cheapest");
  });
});

describe("the rate rule's fixed service", () => {
  it("must be a service of one of the organization's connections; a car_ id is kept as the carrier_id rates carry", async () => {
    const { key } = await makeOrg();
    const fields = async (body: Record<string, unknown>) => {
      const res = await call(putRule, "PUT", "/v1/rate_rule", { key, body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return res.body.errors.map((e: { field: string }) => e.field);
    };
    // A connection this organization does not have (a typo, another organization's), a service its carrier lacks.
    expect(await fields({ kind: "fixed", carrier_id: "sandbx", service: "SBX_2DAY" })).toEqual(["carrier_id"]);
    expect(await fields({ kind: "fixed", carrier_id: "sandbox", service: "FEDEX_GROUND" })).toEqual(["service"]);
    expect((await call(getRule, "GET", "/v1/rate_rule", { key })).body).toMatchObject({ kind: "cheapest" });
    expect(await auditOf(key, "rate_rule.updated")).toEqual([]);

    // Rates name their connection by its carrier_id: a rule kept as a car_ id would never match one.
    const [sandbox] = (await call(listConnections, "GET", "/v1/connections", { key })).body.results;
    const byConnectionId = await call(putRule, "PUT", "/v1/rate_rule", {
      key,
      body: { kind: "fixed", carrier_id: sandbox.id, service: "sbx_2day" },
    });
    expect(byConnectionId.status).toBe(200);
    expect(byConnectionId.body).toMatchObject({ kind: "fixed", carrier_id: "sandbox", service: "SBX_2DAY" });
  });
});

describe("roles", () => {
  beforeEach(() => resetSignInLimits());

  it("lets members read presets and the rule, and only owners and admins change them", async () => {
    const company = await makeOrg("Company");
    const preset = await save(company.key, small);
    const account = newAccount();
    const cookie = await signUp(account);
    await addMember({ ctx: await systemCtx(), orgId: company.orgId, email: account.email, role: "member" });
    const session = { headers: { Cookie: cookie, Origin: ORIGIN } };
    const path = `/v1/parcel_presets/${preset.id}`;

    expect((await call(listPresets, "GET", "/v1/parcel_presets", session)).body.count).toBe(1);
    expect((await call(getPreset, "GET", path, { ...session, ...byId(preset.id) })).status).toBe(200);
    expect((await call(getRule, "GET", "/v1/rate_rule", session)).body.kind).toBe("cheapest");
    const writes = [
      await call(createPreset, "POST", "/v1/parcel_presets", { ...session, body: mailer }),
      await call(updatePreset, "PATCH", path, { ...session, ...byId(preset.id), body: { name: "X" } }),
      await call(deletePreset, "DELETE", path, { ...session, ...byId(preset.id) }),
      await call(putRule, "PUT", "/v1/rate_rule", { ...session, body: { kind: "fastest" } }),
    ];
    for (const res of writes) {
      expect(res.status).toBe(403);
      expect(res.body.errors[0]).toMatchObject({ code: "forbidden", message: expect.stringMatching(/owner or admin/) });
    }
    expect(await names(company.key)).toEqual(["Small box"]);

    await addMember({ ctx: await systemCtx(), orgId: company.orgId, email: account.email, role: "admin" });
    expect((await call(createPreset, "POST", "/v1/parcel_presets", { ...session, body: mailer })).status).toBe(201);
    expect((await call(putRule, "PUT", "/v1/rate_rule", { ...session, body: { kind: "fastest" } })).status).toBe(200);
  });
});
