import { describe, expect, it } from "vitest";
import { UPS_SERVICES, serviceName } from "@/lib/carriers/ups/services";

describe("UPS services", () => {
  it("names a code by the shipment's origin where UPS names it differently", () => {
    expect(serviceName("13", "US")).toBe("UPS Next Day Air Saver");
    expect(serviceName("13", "ca")).toBe("UPS Express Saver");
    expect(serviceName("65", "US")).toBe("UPS Worldwide Saver");
    expect(serviceName("65", "DE")).toBe("UPS Express Saver");
    expect(serviceName("02", "CA")).toBe("UPS Expedited");
    expect(serviceName("03", "CA")).toBe("UPS Ground");
    expect(serviceName("99", "US")).toBeNull();
    expect(serviceName("constructor", "US")).toBeNull();
  });

  it("declares each code once, with a scope", () => {
    const codes = UPS_SERVICES.map((s) => s.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(UPS_SERVICES.find((s) => s.code === "03")).toMatchObject({ name: "UPS Ground", scope: "domestic" });
    expect(UPS_SERVICES.find((s) => s.code === "08")).toMatchObject({ scope: "international" });
  });
});
