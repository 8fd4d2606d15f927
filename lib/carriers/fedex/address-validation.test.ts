import { describe, expect, it } from "vitest";
import { CarrierError } from "@/lib/carriers/types";
import {
  buildResolveRequest,
  parseResolveOutput,
  RESOLVE_BATCH,
  verdictOf,
} from "@/lib/carriers/fedex/address-validation";
import { fedexAdapter } from "@/lib/carriers/fedex/adapter";
import { sampleAddress } from "@/test/label-samples";
import addressRequest from "./fixtures/address-request.json";
import addressVerified from "./fixtures/address-verified.json";
import addressCorrectedSuite from "./fixtures/address-corrected-suite.json";
import addressAmbiguous from "./fixtures/address-ambiguous.json";
import addressNotFound from "./fixtures/address-not-found.json";

/**
 * FedEx Address Validation, request and answers, against fixtures in FedEx's wire format (each held to
 * address-validation.json by test/emulator/contract.test.ts) and FedEx's documented sample answer.
 */

const congress = sampleAddress({
  person_name: "Ann Clerk",
  company_name: "Texas Capitol Cafe",
  address_line1: "1100 Congress Ave",
  address_line2: null,
  city: "Austin",
  state_code: "TX",
  postal_code: "78701",
  phone_number: "+1 512 555 0100",
});
const highRise = { ...congress, address_line1: "500 W 2nd St" };
const toronto = {
  ...congress,
  address_line1: "100 Queen St W",
  city: "Toranto",
  state_code: "ON",
  postal_code: "M5H2N1",
  country_code: "CA",
};
const output = (answer: { output: unknown }) => answer.output as Record<string, unknown>;

describe("FedEx address resolve request", () => {
  it("sends the lines, city, state, postal code and country of each address, never a name or phone", () => {
    const body = buildResolveRequest([congress, highRise, toronto]);
    expect(body).toEqual(addressRequest);
    const text = JSON.stringify(body);
    for (const secret of ["Ann Clerk", "Texas Capitol Cafe", "555"]) expect(text).not.toContain(secret);
  });

  it("leaves out empty lines, keeps three at most, and drops a state FedEx would refuse (more than 2 letters)", () => {
    const [item] = buildResolveRequest([
      { ...congress, address_line2: "  ", state_code: "NSW", country_code: "AU", postal_code: "2000" },
    ]).addressesToValidate;
    expect(item!.address.streetLines).toEqual(["1100 Congress Ave"]);
    expect(item!.address).not.toHaveProperty("stateOrProvinceCode");
  });

  it("declares the capability with FedEx's 100 addresses a call and no country limit", () => {
    expect(fedexAdapter.capabilities).toContain("address_validation");
    expect(fedexAdapter.addressBatch).toBe(RESOLVE_BATCH);
    expect(RESOLVE_BATCH).toBe(100);
    expect(fedexAdapter.addressCountries).toBeUndefined();
    expect(fedexAdapter.addressScope ?? "street").toBe("street");
  });
});

describe("FedEx address resolve answers", () => {
  it("verified: FedEx's address with its ZIP+4, commercial", () => {
    const { data } = parseResolveOutput([congress], output(addressVerified));
    expect(data).toEqual([
      {
        status: "verified",
        residential: false,
        candidates: [
          expect.objectContaining({
            address_line1: "1100 CONGRESS AVE",
            address_line2: null,
            city: "AUSTIN",
            postal_code: "78701-2428",
            company_name: "Texas Capitol Cafe",
          }),
        ],
      },
    ]);
  });

  it("corrected: the suite FedEx added under SuiteRequiredButMissing is on the candidate", () => {
    const { data } = parseResolveOutput([highRise], output(addressCorrectedSuite));
    expect(data[0]).toMatchObject({
      status: "verified",
      candidates: [{ address_line1: "500 W 2ND ST", address_line2: "STE 1900", postal_code: "78701-4687" }],
    });
  });

  it("a suite required but neither sent nor added is ambiguous: the caller must say which", () => {
    const answer = structuredClone(addressCorrectedSuite);
    answer.output.resolvedAddresses[0]!.streetLinesToken = ["500 W 2ND ST"];
    expect(parseResolveOutput([highRise], output(answer)).data[0]!.status).toBe("ambiguous");
  });

  it("ambiguous: MultipleMatches offers FedEx's pick as the candidate; MIXED is neither home nor business", () => {
    const main = {
      ...congress,
      address_line1: "100 Main St",
      city: "New York",
      state_code: "NY",
      postal_code: "10001",
    };
    const { data } = parseResolveOutput([main], output(addressAmbiguous));
    expect(data[0]).toMatchObject({
      status: "ambiguous",
      residential: null,
      candidates: [{ address_line1: "100 N MAIN ST", postal_code: "10001-1001" }],
    });
  });

  it("not found: NORMALIZED and not resolved, no candidate", () => {
    const { data } = parseResolveOutput([{ ...congress, address_line1: "1 Nowhere Rd" }], output(addressNotFound));
    expect(data).toEqual([{ status: "not_found", candidates: [], residential: null }]);
  });

  it("reads FedEx's documented sample: string attributes, customerMessages, postalCode, clientReferenceId", () => {
    const resolved = {
      clientReferenceId: "0",
      streetLinesToken: ["7372 PARKRIDGE BLVD", "APT 286"],
      city: "IRVING",
      stateOrProvinceCode: "TX",
      postalCode: "75063-8365",
      parsedPostalCode: { base: "75063", addOn: "8365", deliveryPoint: "61" },
      countryCode: "US",
      classification: "RESIDENTIAL",
      customerMessages: [
        {
          code: "INTERPOLATED.STREET.ADDRESS",
          message: "Unable to confirm exact street number for the entered street name.",
        },
      ],
      attributes: { Resolved: "true", CountrySupported: "true", MultipleMatches: "false", AddressType: "STANDARDIZED" },
    };
    const sent = {
      ...congress,
      address_line1: "7372 Parkridge Blvd",
      address_line2: "Apt 286",
      city: "Irving",
      postal_code: "75063",
    };
    const { data, messages } = parseResolveOutput([sent], { resolvedAddresses: [resolved] });
    expect(data[0]).toMatchObject({
      status: "ambiguous",
      residential: true,
      candidates: [{ address_line2: "APT 286", postal_code: "75063-8365" }],
    });
    expect(messages).toEqual([
      expect.objectContaining({ code: "INTERPOLATED.STREET.ADDRESS", level: "info", details: { index: 0 } }),
    ]);
    const plain = { ...resolved, customerMessages: [] };
    expect(verdictOf(sent, plain).status).toBe("verified");
    expect(verdictOf(sent, { ...plain, attributes: { ...plain.attributes, Resolved: "false" } }).status).toBe(
      "not_found",
    );
  });

  it("a country FedEx does not check (RAW) is no verdict; residential is read in the US and Canada only", () => {
    const berlin = { ...congress, country_code: "DE", state_code: "", postal_code: "10117", city: "Berlin" };
    const raw = { attributes: { CountrySupported: false, AddressType: "RAW" }, classification: "UNKNOWN" as const };
    expect(verdictOf(berlin, raw)).toEqual({ status: "unsupported", candidates: [], residential: null });
    const home = { streetLinesToken: ["X"], classification: "RESIDENTIAL" as const, attributes: { Resolved: true } };
    expect(verdictOf(berlin, home).residential).toBeNull();
    expect(verdictOf(toronto, home).residential).toBe(true);
    expect(verdictOf(toronto, { ...home, classification: "BUSINESS" }).residential).toBe(false);
    expect(verdictOf(congress, { ...home, classification: "UNKNOWN" }).residential).toBeNull();
  });

  it("matches answers back by clientReferenceId, whatever their order; a missing one is a bad response", () => {
    const a = { ...addressVerified.output.resolvedAddresses[0]!, clientReferenceId: "1" };
    const b = { ...addressNotFound.output.resolvedAddresses[0]!, clientReferenceId: "0" };
    const { data } = parseResolveOutput([{ ...congress, address_line1: "1 Nowhere Rd" }, congress], {
      resolvedAddresses: [a, b],
    });
    expect(data.map((d) => d.status)).toEqual(["not_found", "verified"]);
    expect(() => parseResolveOutput([congress, highRise], { resolvedAddresses: [a] })).toThrow(CarrierError);
    expect(() => parseResolveOutput([congress], {})).toThrow(/resolvedAddresses/);
  });
});
