import { describe, expect, it } from "vitest";
import { fieldPath } from "@/lib/validation";

describe("fieldPath", () => {
  it("renders zod paths the way the contract shows them", () => {
    expect(fieldPath(["parcels", 0, "weight"])).toBe("parcels[0].weight");
    expect(fieldPath(["shipper", "country_code"])).toBe("shipper.country_code");
    expect(fieldPath([0])).toBe("[0]");
    expect(fieldPath(["api_key"], "credentials")).toBe("credentials.api_key");
    expect(fieldPath([])).toBeNull();
  });
});
