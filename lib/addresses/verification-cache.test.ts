import { describe, expect, it } from "vitest";
import { addressHash } from "./verification-cache";
import type { CheckedAddress } from "./types";

const a: CheckedAddress = {
  person_name: "Ada",
  company_name: null,
  address_line1: "1100 Congress Ave",
  address_line2: null,
  city: "Austin",
  postal_code: "78701",
  state_code: "TX",
  country_code: "US",
  phone_number: "+15125550100",
};

describe("addressHash", () => {
  it("is the same for the same lines whatever the case, spacing or names", () => {
    const h = addressHash(a);
    expect(addressHash({ ...a, address_line1: " 1100  CONGRESS ave ", city: "AUSTIN" })).toBe(h);
    expect(addressHash({ ...a, person_name: "Someone else", phone_number: null, company_name: "X" })).toBe(h);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
  });

  it("differs when a line differs, and keeps a line from sliding into the next", () => {
    const h = addressHash(a);
    expect(addressHash({ ...a, postal_code: "78702" })).not.toBe(h);
    // A test connection's canned verdict is never a live one's.
    expect(addressHash(a, "test")).not.toBe(h);
    expect(addressHash(a, "live")).toBe(h);
    expect(addressHash({ ...a, address_line2: "Ste 1" })).not.toBe(h);
    expect(addressHash({ ...a, address_line1: "1100 Congress", address_line2: "Ave" })).not.toBe(
      addressHash({ ...a, address_line1: "1100", address_line2: "Congress Ave" }),
    );
  });
});
