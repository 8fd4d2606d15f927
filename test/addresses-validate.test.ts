import { describe, expect, it } from "vitest";
import { POST as validate } from "@/app/v1/addresses/validate/route";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { POST as shipping } from "@/app/v1/proxy/shipping/route";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { addressVerifications } from "@/lib/db/schema";
import { addConnection, useCarrierEmulator } from "@/test/emulator-helpers";
import { UPS_CREDENTIALS } from "@/test/ups-context";
import { USPS_CREDENTIALS } from "@/test/usps-context";
import { DHL_CREDENTIALS } from "@/test/dhl-context";
import { FEDEX_CREDENTIALS } from "@/test/fedex-context";
import { call, makeOrg } from "./helpers";

/**
 * POST /v1/addresses/validate against UPS Address Validation in the carrier emulator (held to AddressValidation.yaml):
 * each of UPS's answers, the offline checks that spare a call, the organization's cache, and a fault.
 */
const lab = useCarrierEmulator();
const xavCalls = () => lab.current.calls.filter((c) => c.carrier === "ups" && c.operation === "address_validation");

const congress = {
  company_name: "Texas Capitol Cafe",
  address_line1: "1100 Congress Ave",
  city: "Austin",
  state_code: "TX",
  postal_code: "78701",
  country_code: "US",
};
const highRise = { ...congress, address_line1: "500 W 2nd St" };
const main = {
  person_name: "Ann",
  address_line1: "100 Main St",
  city: "New York",
  state_code: "NY",
  postal_code: "10001",
  country_code: "US",
};
const privet = {
  person_name: "Harry",
  address_line1: "4 Privet Dr",
  city: "San Francisco",
  state_code: "CA",
  postal_code: "94105",
  country_code: "US",
};

async function upsOrg() {
  const org = await makeOrg();
  await addConnection(org.key, { carrier_name: "ups", carrier_id: "ups-main", credentials: UPS_CREDENTIALS });
  return org;
}

async function check(key: string, addresses: unknown[], extra: Record<string, unknown> = {}) {
  const res = await call(validate, "POST", "/v1/addresses/validate", { key, body: { addresses, ...extra } });
  expect(res.status).toBe(200);
  return res.body.results as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe("POST /v1/addresses/validate with UPS", () => {
  it("verifies an address UPS knows as sent, with its classification and no suggestion", async () => {
    const { key } = await upsOrg();
    const [r] = await check(key, [congress]);
    expect(r).toMatchObject({
      status: "verified",
      residential: false,
      provider: { carrier_name: "ups", carrier_id: "ups-main" },
      cached: false,
      suggestions: [],
      messages: [],
    });
    expect(r!.address).toMatchObject({ address_line1: "1100 Congress Ave", postal_code: "78701" });
    expect(xavCalls()).toHaveLength(1);
    // Names stay home: UPS is asked about the street, never about who is there.
    expect(xavCalls()[0]!.body).not.toContain("Texas Capitol Cafe");
  });

  it("answers corrected with the suite UPS added, as a suggestion the caller may take", async () => {
    const { key } = await upsOrg();
    const [r] = await check(key, [highRise]);
    expect(r!.status).toBe("corrected");
    expect(r!.address.address_line2).toBeNull();
    expect(r!.suggestions).toEqual([
      {
        source: "carrier",
        changed_fields: ["address_line2"],
        address: expect.objectContaining({
          address_line2: "STE 1900",
          postal_code: "78701-4687",
          company_name: "Texas Capitol Cafe",
        }),
      },
    ]);
    expect(r!.messages).toEqual([expect.objectContaining({ code: "address_corrected", field: "address_line2" })]);
  });

  it("answers ambiguous with each candidate and what it changes", async () => {
    const { key } = await upsOrg();
    const [r] = await check(key, [main]);
    expect(r!.status).toBe("ambiguous");
    expect(r!.residential).toBeNull();
    expect(
      r!.suggestions.map((s: { address: { address_line1: string }; changed_fields: string[] }) => [
        s.address.address_line1,
        s.changed_fields,
      ]),
    ).toEqual([
      ["100 N MAIN ST", ["address_line1"]],
      ["100 S MAIN ST", ["address_line1"]],
    ]);
  });

  it("answers invalid for an address UPS does not know, and residential where it says so", async () => {
    const { key } = await upsOrg();
    const [unknown, home] = await check(key, [{ ...congress, address_line1: "1 Nowhere Rd" }, privet]);
    expect(unknown).toMatchObject({
      status: "invalid",
      suggestions: [],
      messages: [expect.objectContaining({ code: "address_not_found" })],
    });
    expect(home).toMatchObject({ status: "verified", residential: true });
  });

  it("knows every house of the emulator's stretch of Congress Ave, and not one past it", async () => {
    const { key } = await upsOrg();
    const lines = ["2000 Congress Ave", "3999 Congress Ave", "4000 Congress Ave", "1999 Congress Ave"];
    const results = await check(
      key,
      lines.map((address_line1) => ({ ...congress, address_line1 })),
    );
    expect(results.map((r) => r.status)).toEqual(["verified", "verified", "invalid", "invalid"]);
    expect(results[0]).toMatchObject({ residential: true });
  });

  it("catches Austin, TX 60607 offline: no carrier call at all", async () => {
    const { key } = await upsOrg();
    const [r] = await check(key, [{ ...congress, postal_code: "60607" }]);
    expect(r).toMatchObject({ status: "invalid", provider: null });
    expect(r!.messages).toEqual([
      expect.objectContaining({ field: "postal_code", code: "postal_code_state_mismatch", level: "error" }),
    ]);
    expect(lab.current.calls.filter((c) => c.carrier === "ups")).toHaveLength(0);
  });

  it("answers a repeat from the organization's cache, and asks once for an address listed twice", async () => {
    const { key } = await upsOrg();
    const first = await check(key, [highRise, { ...highRise, address_line1: " 500 W 2ND ST " }]);
    expect(first.map((r) => r.status)).toEqual(["corrected", "corrected"]);
    expect(xavCalls()).toHaveLength(1);
    const [again] = await check(key, [{ ...highRise, company_name: "Someone else" }]);
    expect(again).toMatchObject({ status: "corrected", cached: true });
    // The cached verdict carries no names: the caller's come back on the suggestion.
    expect(again!.suggestions[0].address.company_name).toBe("Someone else");
    expect(xavCalls()).toHaveLength(1);
    // Another organization's cache is its own.
    const other = await upsOrg();
    const [theirs] = await check(other.key, [highRise]);
    expect(theirs).toMatchObject({ status: "corrected", cached: false });
    expect(xavCalls()).toHaveLength(2);
  });

  it("asks again once a cached verdict is 30 days old, and keeps no names in the cache", async () => {
    const { key, orgId } = await upsOrg();
    await check(key, [highRise]);
    const db = await getDb();
    const [row] = await db
      .select()
      .from(addressVerifications)
      .where(sql`${addressVerifications.orgId} = ${orgId}`);
    expect(JSON.stringify(row!.verdict)).not.toContain("Texas Capitol Cafe");
    await db
      .update(addressVerifications)
      .set({ createdAt: new Date(Date.now() - 31 * 24 * 3600 * 1000) })
      .where(sql`${addressVerifications.orgId} = ${orgId}`);
    const [again] = await check(key, [highRise]);
    expect(again).toMatchObject({ status: "corrected", cached: false });
    expect(xavCalls()).toHaveLength(2);
    const rows = await db
      .select()
      .from(addressVerifications)
      .where(sql`${addressVerifications.orgId} = ${orgId}`);
    expect(rows).toHaveLength(1);
  });

  it("answers unverified when UPS fails, and caches nothing", async () => {
    const { key } = await upsOrg();
    lab.current.set("ups", { fault: { kind: "status", status: 503 }, fault_operations: ["address_validation"] });
    const [r] = await check(key, [congress]);
    expect(r).toMatchObject({ status: "unverified", provider: null, residential: null });
    expect(r!.messages).toEqual([expect.objectContaining({ code: "verification_unavailable", level: "warning" })]);
    lab.current.set("ups", { fault: null });
    const [later] = await check(key, [congress]);
    expect(later).toMatchObject({ status: "verified", cached: false });
  });

  it("leaves addresses outside UPS's countries unverified, and an organization without a verifier too", async () => {
    const { key } = await upsOrg();
    const berlin = {
      person_name: "Max",
      address_line1: "Unter den Linden 1",
      city: "Berlin",
      postal_code: "10117",
      country_code: "DE",
    };
    const [r] = await check(key, [berlin]);
    expect(r).toMatchObject({
      status: "unverified",
      messages: [expect.objectContaining({ code: "verification_unavailable", level: "info" })],
    });
    const sandboxOnly = await makeOrg();
    const [s] = await check(sandboxOnly.key, [congress]);
    expect(s!.status).toBe("unverified");
    expect(xavCalls()).toHaveLength(0);
  });

  it("refuses carrier_ids that match no connection of the organization, asking no carrier", async () => {
    const { key } = await upsOrg();
    const other = await makeOrg();
    const theirs = await addConnection(other.key, {
      carrier_name: "ups",
      carrier_id: "ups-theirs",
      credentials: UPS_CREDENTIALS,
    });
    // A typo, and another organization's connection (by its car_ id): 400 on the entry, as every carrier_ids is.
    for (const carrier_ids of [["ups-mian"], ["ups-main", theirs.id]]) {
      const res = await call(validate, "POST", "/v1/addresses/validate", {
        key,
        body: { addresses: [congress], carrier_ids },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ code: "validation_error", field: `carrier_ids[${carrier_ids.length - 1}]` }),
      ]);
    }
    expect(xavCalls()).toHaveLength(0);
    // A connection of the organization that verifies nothing (the sandbox) leaves the address unverified.
    const [r] = await check(key, [congress], { carrier_ids: ["sandbox"] });
    expect(r!.status).toBe("unverified");
    expect(xavCalls()).toHaveLength(0);
  });

  it("checks the lines of the carrier named and refuses more than 100 addresses", async () => {
    const { key } = await upsOrg();
    const [box] = await check(key, [{ ...congress, address_line1: "PO Box 1234" }], { carrier_name: "ups" });
    expect(box).toMatchObject({
      status: "invalid",
      messages: [expect.objectContaining({ code: "po_box_not_served" })],
    });
    const many = await call(validate, "POST", "/v1/addresses/validate", {
      key,
      body: { addresses: Array(101).fill(congress) },
    });
    expect(many.status).toBe(400);
  });
});

describe("POST /v1/addresses/validate with USPS Addresses v3", () => {
  const uspsCalls = () => lab.current.calls.filter((c) => c.carrier === "usps" && c.operation === "address_validation");

  async function uspsOrg(withUps = false) {
    const org = await makeOrg();
    if (withUps)
      await addConnection(org.key, { carrier_name: "ups", carrier_id: "ups-main", credentials: UPS_CREDENTIALS });
    await addConnection(org.key, { carrier_name: "usps", carrier_id: "usps-main", credentials: USPS_CREDENTIALS });
    return org;
  }

  it("reads DPV and the business flag: verified, corrected, a missing suite, several, none", async () => {
    const { key } = await uspsOrg();
    const results = await check(key, [
      congress,
      privet,
      { ...congress, address_line1: "1100 Congres Ave" },
      highRise,
      main,
      { ...congress, address_line1: "1 Nowhere Rd" },
    ]);
    expect(results.map((r) => [r.status, r.residential, r.provider?.carrier_name ?? null])).toEqual([
      ["verified", false, "usps"],
      ["verified", true, "usps"],
      ["corrected", false, "usps"],
      ["ambiguous", false, "usps"],
      ["ambiguous", null, "usps"],
      ["invalid", null, "usps"],
    ]);
    expect(results[2]!.suggestions).toEqual([
      expect.objectContaining({ source: "carrier", changed_fields: ["address_line1"] }),
    ]);
    expect(results[2]!.suggestions[0].address.address_line1).toBe("1100 CONGRESS AVE");
    expect(results[3]!.suggestions).toHaveLength(1);
    expect(results[4]!.suggestions).toEqual([]);
    expect(uspsCalls()).toHaveLength(6);
  });

  it("answers unverified when USPS fails or garbles its answer, and caches neither", async () => {
    const { key } = await uspsOrg();
    for (const fault of [{ kind: "status", status: 503 }, { kind: "malformed" }] as const) {
      lab.current.set("usps", { fault, fault_operations: ["address_validation"] });
      const [r] = await check(key, [congress]);
      expect(r, fault.kind).toMatchObject({ status: "unverified", provider: null, residential: null, cached: false });
      expect(r!.messages).toEqual([expect.objectContaining({ code: "verification_unavailable", level: "warning" })]);
    }
    lab.current.set("usps", { fault: null });
    const [later] = await check(key, [congress]);
    expect(later).toMatchObject({ status: "verified", cached: false });
  });

  it("reads a suite USPS adds, a suite it confirms or not (DPV S), and a number that is no delivery point (N)", async () => {
    const { key } = await uspsOrg();
    const results = await check(key, [
      { ...congress, address_line1: "600 Congress Ave" },
      { ...highRise, address_line2: "Ste 1900" },
      { ...highRise, address_line2: "Ste 9999" },
      { ...congress, address_line1: "1102 Congress Ave" },
    ]);
    expect(results.map((r) => r.status)).toEqual(["corrected", "verified", "ambiguous", "invalid"]);
    expect(results[0]!.suggestions).toEqual([
      expect.objectContaining({ source: "carrier", changed_fields: expect.arrayContaining(["address_line2"]) }),
    ]);
    expect(results[0]!.suggestions[0].address).toMatchObject({ address_line2: "STE 1400", postal_code: "78701-3057" });
    // The unit sent is not confirmed: the building is the candidate, the clerk says which unit.
    expect(results[2]!.suggestions).toHaveLength(1);
    expect(results[3]).toMatchObject({ residential: null, suggestions: [] });
  });

  it("asks the carrier the label is for when the organization has several", async () => {
    const { key } = await uspsOrg(true);
    const [byUps] = await check(key, [congress]);
    expect(byUps!.provider.carrier_name).toBe("ups");
    const [byUsps] = await check(key, [congress], { carrier_name: "usps" });
    expect(byUsps!.provider.carrier_name).toBe("usps");
  });
});

describe("validate on POST /v1/proxy/shipping", () => {
  it("refuses a PO Box UPS cannot deliver to before the label is bought; without validate it is bought", async () => {
    const { key } = await upsOrg();
    const box = { ...privet, address_line1: "PO Box 77" };
    const body = {
      shipper: congress,
      recipient: box,
      parcels: [{ weight: 1, weight_unit: "KG" }],
      carrier_ids: ["ups-main"],
    };
    const quoted = await call(rates, "POST", "/v1/proxy/rates", { key, body });
    expect(quoted.status).toBe(200);
    const offered = quoted.body.rates;
    const buy = (validate: boolean) =>
      call(shipping, "POST", "/v1/proxy/shipping", {
        key,
        body: { ...body, rates: offered, selected_rate_id: offered[0].id, validate },
      });
    const refused = await buy(true);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ code: "address_invalid", field: "recipient.address_line1" }),
    ]);
    expect(lab.current.calls.filter((c) => c.operation === "ship")).toHaveLength(0);
    const bought = await buy(false);
    expect(bought.status).toBe(200);
    expect(lab.current.calls.filter((c) => c.operation === "ship")).toHaveLength(1);
  });
});

describe("POST /v1/addresses/validate with DHL Express address-validate", () => {
  const dhlCalls = () =>
    lab.current.calls.filter((c) => c.carrier === "dhl_express" && c.operation === "address_validation");
  const place = { person_name: "Max", address_line1: "Unter den Linden 1" };

  it("checks the postal code and city of any country: known, corrected, several, none", async () => {
    const { key } = await makeOrg();
    await addConnection(key, { carrier_name: "dhl_express", carrier_id: "dhl-main", credentials: DHL_CREDENTIALS });
    const results = await check(key, [
      { ...place, city: "Berlin", postal_code: "10117", country_code: "DE" },
      { ...place, city: "Londn", postal_code: "SW1A 2AA", country_code: "GB" },
      { ...place, city: "Lausanne 1", postal_code: "1000", country_code: "CH" },
      { ...place, city: "Berlin", postal_code: "99999", country_code: "DE" },
    ]);
    expect(results.map((r) => [r.status, r.provider?.carrier_name ?? null, r.residential])).toEqual([
      ["verified", "dhl_express", null],
      ["corrected", "dhl_express", null],
      ["ambiguous", "dhl_express", null],
      ["invalid", "dhl_express", null],
    ]);
    expect(results[1]!.suggestions).toEqual([
      expect.objectContaining({ changed_fields: ["city"], address: expect.objectContaining({ city: "LONDON" }) }),
    ]);
    expect(results[2]!.suggestions.map((s: { address: { city: string } }) => s.address.city)).toEqual([
      "LAUSANNE",
      "LAUSANNE 25",
    ]);
    expect(dhlCalls()).toHaveLength(4);
  });

  it("leaves a US address to a carrier that checks its street", async () => {
    const { key } = await makeOrg();
    await addConnection(key, { carrier_name: "dhl_express", carrier_id: "dhl-main", credentials: DHL_CREDENTIALS });
    await addConnection(key, { carrier_name: "ups", carrier_id: "ups-main", credentials: UPS_CREDENTIALS });
    const [r] = await check(key, [congress]);
    expect(r!.provider.carrier_name).toBe("ups");
    expect(dhlCalls()).toHaveLength(0);
  });
});

describe("POST /v1/addresses/validate with FedEx address resolve", () => {
  const fedexCalls = () =>
    lab.current.calls.filter((c) => c.carrier === "fedex" && c.operation === "address_validation");
  const toronto = {
    company_name: "City Hall",
    address_line1: "100 Queen St W",
    city: "Toranto",
    state_code: "ON",
    postal_code: "M5H 2N1",
    country_code: "CA",
  };
  const berlin = {
    person_name: "Max",
    address_line1: "Unter den Linden 1",
    city: "Berlin",
    postal_code: "10117",
    country_code: "DE",
  };
  const paris = {
    person_name: "Lea",
    address_line1: "1 Rue de Rivoli",
    city: "Paris",
    postal_code: "75001",
    country_code: "FR",
  };

  async function fedexOrg() {
    const org = await makeOrg();
    await addConnection(org.key, { carrier_name: "fedex", carrier_id: "fedex-main", credentials: FEDEX_CREDENTIALS });
    return org;
  }

  it("asks once for many addresses: verified, a suite added, ambiguous, none, and residential where FedEx says", async () => {
    const { key } = await fedexOrg();
    const results = await check(key, [
      congress,
      highRise,
      main,
      { ...congress, address_line1: "1 Nowhere Rd" },
      privet,
    ]);
    expect(results.map((r) => [r.status, r.residential, r.provider?.carrier_name ?? null])).toEqual([
      ["verified", false, "fedex"],
      ["corrected", false, "fedex"],
      ["ambiguous", null, "fedex"],
      ["invalid", null, "fedex"],
      ["verified", true, "fedex"],
    ]);
    expect(results[1]!.address.address_line2).toBeNull();
    expect(results[1]!.suggestions).toEqual([
      {
        source: "carrier",
        changed_fields: ["address_line2"],
        address: expect.objectContaining({ address_line2: "STE 1900", company_name: "Texas Capitol Cafe" }),
      },
    ]);
    expect(results[2]!.suggestions).toEqual([
      expect.objectContaining({
        changed_fields: ["address_line1"],
        address: expect.objectContaining({ address_line1: "100 N MAIN ST" }),
      }),
    ]);
    expect(results[3]!.messages).toEqual([expect.objectContaining({ code: "address_not_found" })]);
    // One call carries them all (FedEx takes 100), and no name leaves.
    expect(fedexCalls()).toHaveLength(1);
    expect(fedexCalls()[0]!.body).not.toContain("Texas Capitol Cafe");
  });

  it("reads residential in Canada only beside the US, corrects the city, and answers a repeat from the cache", async () => {
    const { key } = await fedexOrg();
    const [ca, de] = await check(key, [toronto, berlin]);
    expect(ca).toMatchObject({ status: "corrected", residential: false });
    expect(ca!.suggestions[0]).toMatchObject({ changed_fields: ["city"], address: { city: "TORONTO" } });
    // FedEx classifies Berlin residential; outside the US and Canada it is not read.
    expect(de).toMatchObject({ status: "verified", residential: null, provider: { carrier_name: "fedex" } });
    const [again] = await check(key, [toronto]);
    expect(again).toMatchObject({ status: "corrected", cached: true });
    expect(fedexCalls()).toHaveLength(1);
  });

  it("a country FedEx does not check is unverified, says why, and is asked again next time", async () => {
    const { key } = await fedexOrg();
    const [r] = await check(key, [paris]);
    expect(r).toMatchObject({ status: "unverified", provider: null, residential: null });
    expect(r!.messages).toEqual([
      expect.objectContaining({
        code: "verification_unavailable",
        level: "warning",
        text: expect.stringContaining("FR"),
      }),
    ]);
    await check(key, [paris]);
    expect(fedexCalls()).toHaveLength(2);
  });

  it("is asked before DHL Express, which checks places only; a fault leaves the address unverified", async () => {
    // DHL Express connected first: the oldest connection, yet not the one asked.
    const { key } = await makeOrg();
    await addConnection(key, { carrier_name: "dhl_express", carrier_id: "dhl-main", credentials: DHL_CREDENTIALS });
    await addConnection(key, { carrier_name: "fedex", carrier_id: "fedex-main", credentials: FEDEX_CREDENTIALS });
    const [r] = await check(key, [berlin]);
    expect(r!.provider.carrier_name).toBe("fedex");
    expect(lab.current.calls.filter((c) => c.carrier === "dhl_express")).toHaveLength(0);
    lab.current.set("fedex", { fault: { kind: "status", status: 503 }, fault_operations: ["address_validation"] });
    const [failed] = await check(key, [congress]);
    expect(failed).toMatchObject({ status: "unverified", provider: null });
  });
});
