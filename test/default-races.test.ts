import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { PATCH as updateAddress } from "@/app/v1/addresses/[id]/route";
import { GET as listAddresses, POST as createAddress } from "@/app/v1/addresses/route";
import { PATCH as updatePreset } from "@/app/v1/parcel_presets/[id]/route";
import { GET as listPresets, POST as createPreset } from "@/app/v1/parcel_presets/route";
import { updateSavedAddress } from "@/lib/addresses/update-saved-address";
import { recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { parcelPresets } from "@/lib/db/schema";
import { updateParcelPreset } from "@/lib/orgs/parcel-presets/update-parcel-preset";
import { call, makeOrg, orgCtx, untilWaitingOnLock } from "./helpers";

/**
 * docs/api.md, "Parcel presets" and "Address book": at most one default preset and one default ship-from per
 * organization, "setting it on one takes it off the other". Two such changes at once must both answer, one after the
 * other, leaving one default; not a 500 from the unique index. Concurrent transactions need real Postgres (PGlite
 * runs one transaction at a time).
 */

/** Runs `first` in a transaction held open (its locks kept) until `then` has started and waits on them. */
async function heldWhile<T>(
  first: (tx: Parameters<Parameters<Awaited<ReturnType<typeof getDb>>["transaction"]>[0]>[0]) => Promise<unknown>,
  then: () => Promise<T>,
) {
  const db = await getDb();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const holds = new Promise<void>((resolve) => (holding = resolve));
  const held = db.transaction(async (tx) => {
    await first(tx);
    holding();
    await gate;
  });
  await holds;
  const second = then();
  await untilWaitingOnLock();
  release();
  await held;
  return second;
}

const box = (name: string, is_default = false) => ({
  name,
  length: 10,
  width: 8,
  height: 4,
  dimension_unit: "IN",
  is_default,
});
const place = (label: string, is_default_sender = false) => ({
  label,
  person_name: "Ada Lovelace",
  address_line1: "1100 Congress Ave",
  city: "Austin",
  state_code: "TX",
  postal_code: "78701",
  country_code: "US",
  is_default_sender,
});

describe.skipIf(!process.env.DATABASE_URL)("one default, set twice at once (Postgres)", () => {
  it("two presets made the default at once: both answer, one default remains", async () => {
    const { key, orgId } = await makeOrg();
    const ids: string[] = [];
    for (const b of [box("A", true), box("B"), box("C")]) {
      ids.push((await call(createPreset, "POST", "/v1/parcel_presets", { key, body: b })).body.id);
    }
    const [, b, c] = ids as [string, string, string];
    const ctx = await orgCtx(orgId);
    const second = await heldWhile(
      (tx) => updateParcelPreset({ ctx: { ...ctx, db: tx }, id: b, input: { is_default: true } }),
      () =>
        call(updatePreset, "PATCH", `/v1/parcel_presets/${c}`, { key, params: { id: c }, body: { is_default: true } }),
    );
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const listed = (await call(listPresets, "GET", "/v1/parcel_presets", { key })).body.results;
    expect(listed.filter((p: { is_default: boolean }) => p.is_default).map((p: { name: string }) => p.name)).toEqual([
      "C",
    ]);
  });

  it("a preset created as the default while another is made it: both answer, one default remains", async () => {
    const { key, orgId } = await makeOrg();
    await call(createPreset, "POST", "/v1/parcel_presets", { key, body: box("A", true) });
    const b = (await call(createPreset, "POST", "/v1/parcel_presets", { key, body: box("B") })).body.id;
    const ctx = await orgCtx(orgId);
    const second = await heldWhile(
      (tx) => updateParcelPreset({ ctx: { ...ctx, db: tx }, id: b, input: { is_default: true } }),
      () => call(createPreset, "POST", "/v1/parcel_presets", { key, body: box("C", true) }),
    );
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const listed = (await call(listPresets, "GET", "/v1/parcel_presets", { key })).body.results;
    expect(listed.filter((p: { is_default: boolean }) => p.is_default).map((p: { name: string }) => p.name)).toEqual([
      "C",
    ]);
  });

  it("two addresses made the default ship-from at once: both answer, one default remains", async () => {
    const { key, orgId } = await makeOrg();
    await call(createAddress, "POST", "/v1/addresses", { key, body: place("A", true) });
    const b = (await call(createAddress, "POST", "/v1/addresses", { key, body: place("B") })).body.id;
    const c = (await call(createAddress, "POST", "/v1/addresses", { key, body: place("C") })).body.id;
    const ctx = await orgCtx(orgId);
    const second = await heldWhile(
      (tx) => updateSavedAddress({ ctx: { ...ctx, db: tx }, id: b, input: { is_default_sender: true } }),
      () =>
        call(updateAddress, "PATCH", `/v1/addresses/${c}`, {
          key,
          params: { id: c },
          body: { is_default_sender: true },
        }),
    );
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const defaults = await call(listAddresses, "GET", "/v1/addresses", { key, query: { is_default_sender: "true" } });
    expect(defaults.body.results.map((a: { label: string }) => a.label)).toEqual(["C"]);
  });

  it("an address saved as the default ship-from while another is made it: both answer, one default remains", async () => {
    const { key, orgId } = await makeOrg();
    await call(createAddress, "POST", "/v1/addresses", { key, body: place("A", true) });
    const b = (await call(createAddress, "POST", "/v1/addresses", { key, body: place("B") })).body.id;
    const ctx = await orgCtx(orgId);
    const second = await heldWhile(
      (tx) => updateSavedAddress({ ctx: { ...ctx, db: tx }, id: b, input: { is_default_sender: true } }),
      () => call(createAddress, "POST", "/v1/addresses", { key, body: place("C", true) }),
    );
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const defaults = await call(listAddresses, "GET", "/v1/addresses", { key, query: { is_default_sender: "true" } });
    expect(defaults.body.results.map((a: { label: string }) => a.label)).toEqual(["C"]);
  });

  it("a new default preset while the old default is being renamed: both answer, no deadlock", async () => {
    const { key, orgId } = await makeOrg();
    const a = (await call(createPreset, "POST", "/v1/parcel_presets", { key, body: box("A", true) })).body.id;
    const ctx = await orgCtx(orgId);
    let renamed!: () => void;
    const rename = new Promise<void>((resolve) => (renamed = resolve));
    let locked!: () => void;
    const hasLock = new Promise<void>((resolve) => (locked = resolve));
    // What PATCH /v1/parcel_presets/{A} {name} does, in its order: A's row locked and changed, then its audit row
    // (whose key on the organization's row is taken then). The create comes between the two.
    const patch = (await getDb()).transaction(async (tx) => {
      await tx.select().from(parcelPresets).where(eq(parcelPresets.id, a)).for("update");
      await tx.update(parcelPresets).set({ name: "A2" }).where(eq(parcelPresets.id, a));
      locked();
      await rename;
      await recordAudit(
        { ...ctx, db: tx },
        { action: "parcel_preset.updated", resourceId: a, summary: { fields: ["name"] } },
      );
    });
    await hasLock;
    const created = call(createPreset, "POST", "/v1/parcel_presets", { key, body: box("C", true) });
    await untilWaitingOnLock();
    renamed();
    const [patched, res] = await Promise.allSettled([patch, created]);
    expect(patched.status).toBe("fulfilled");
    expect(res.status === "fulfilled" && res.value.status, JSON.stringify(res)).toBe(201);
    const listed = (await call(listPresets, "GET", "/v1/parcel_presets", { key })).body.results;
    expect(listed.map((p: { name: string; is_default: boolean }) => [p.name, p.is_default])).toEqual([
      ["C", true],
      ["A2", false],
    ]);
  });
});
