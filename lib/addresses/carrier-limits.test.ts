import { describe, expect, it } from "vitest";
import { fitLabel } from "@/lib/labels/layout";
import { sampleAddress, sampleLabelContent } from "@/test/label-samples";
import { CARRIER_LIMITS } from "./carrier-limits";

describe("the sandbox's limits", () => {
  it("are what its own label prints whole in every format, in the widest letters the layout allows for", () => {
    const { street, name, city, reference } = CARRIER_LIMITS.sandbox;
    const address = sampleAddress({
      person_name: "M".repeat(name),
      company_name: "M".repeat(name),
      address_line1: "M".repeat(street),
      address_line2: "M".repeat(street),
      city: "M".repeat(city),
    });
    const content = sampleLabelContent({ shipper: address, recipient: address, reference: "M".repeat(reference) });
    expect(fitLabel(content).cut).toEqual([]);
    // A few characters more no longer fit the narrowest place (the sender's block): the limit is close to the layout.
    const longer = sampleAddress({ address_line1: "M".repeat(street + 5) });
    expect(fitLabel(sampleLabelContent({ shipper: longer })).cut).toEqual(["shipper.address_line1"]);
  });
});
