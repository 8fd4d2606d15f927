import { describe, expect, it } from "vitest";
import { ShippingOptions, readShippingOptions } from "@/lib/schemas/options";

describe("shipping options", () => {
  it("read the purplship way and ours alike", () => {
    expect(readShippingOptions({ signature_confirmation: true, insurance: "150.5", currency: "cad" })).toEqual({
      signature: "standard",
      insurance: { amount: 150.5, currency: "CAD" },
      saturdayDelivery: false,
      fedexOneRate: false,
    });
    expect(
      readShippingOptions({
        signature_confirmation: "adult",
        insurance: { amount: 80, currency: "eur" },
        currency: "USD",
        saturday_delivery: true,
        fedex_one_rate: true,
      }),
    ).toEqual({
      signature: "adult",
      insurance: { amount: 80, currency: "EUR" },
      saturdayDelivery: true,
      fedexOneRate: true,
    });
    expect(readShippingOptions({ insurance: "0.00", declared_value: "" }).insurance).toBeNull();
    expect(readShippingOptions({ signature_confirmation: false, insurance: null })).toMatchObject({
      signature: "none",
      insurance: null,
    });
  });

  it("are validated without being rewritten, and keep keys nobody types", () => {
    const given = { signature_confirmation: true, declared_value: "99.90", email_notification: true, nested: { a: 1 } };
    expect(ShippingOptions.parse(given)).toEqual(given);
    const refused = ShippingOptions.safeParse({ currency: "dollars", fedex_one_rate: "yes", insurance: "-1" });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((i) => i.path.join(".")).sort()).toEqual([
      "currency",
      "fedex_one_rate",
      "insurance",
    ]);
  });
});
