import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getAdapter } from "@/lib/carriers/registry";
import { CARRIER_NAMES } from "@/lib/carriers/names";
import { defineAdapter, type CarrierAdapter } from "@/lib/carriers/types";

const unused = async (): Promise<never> => {
  throw new Error("not called");
};
const base = {
  carrier_name: "sandbox" as const,
  display_name: "Test",
  label_types: ["PDF"] as const,
  label_sizes: ["4x6"] as const,
  services: [],
  credentialsSchema: z.object({}),
  configSchema: z.object({}),
  trackingBudget: { concurrency: 1, requestsPerMinute: 60, batchSize: 1 },
  rate: unused,
  ship: unused,
  track: unused,
};

describe("defineAdapter", () => {
  it("holds void, trackMany and findShipments to the declared capabilities (checked by the compiler)", () => {
    defineAdapter({ ...base, capabilities: ["rates", "ship", "track"] });
    defineAdapter({ ...base, capabilities: ["rates", "ship", "track", "void"], void: unused });
    // @ts-expect-error "void" declared without the method
    defineAdapter({ ...base, capabilities: ["rates", "ship", "track", "void"] });
    // @ts-expect-error the method without "void" declared
    defineAdapter({ ...base, capabilities: ["rates", "ship", "track"], void: unused });
    // @ts-expect-error "multi_track" declared without trackMany
    defineAdapter({ ...base, capabilities: ["rates", "ship", "track", "multi_track"] });
    defineAdapter({ ...base, capabilities: ["rates", "ship", "track", "lookup"], findShipments: unused });
    // @ts-expect-error "lookup" declared without findShipments
    defineAdapter({ ...base, capabilities: ["rates", "ship", "track", "lookup"] });
    // @ts-expect-error findShipments without "lookup" declared
    defineAdapter({ ...base, capabilities: ["rates", "ship", "track"], findShipments: unused });
    defineAdapter({ ...base, capabilities: ["rates", "ship", "track", "refund_status"], checkRefund: unused });
    // @ts-expect-error "refund_status" declared without checkRefund
    defineAdapter({ ...base, capabilities: ["rates", "ship", "track", "refund_status"] });
    // @ts-expect-error checkRefund without "refund_status" declared
    defineAdapter({ ...base, capabilities: ["rates", "ship", "track"], checkRefund: unused });
  });

  it.each(CARRIER_NAMES)("%s: the registered adapter has exactly the operations it declares", (name) => {
    const adapter = getAdapter(name) as CarrierAdapter;
    expect(adapter.carrier_name).toBe(name);
    expect(typeof adapter.void === "function").toBe(adapter.capabilities.includes("void"));
    expect(typeof adapter.trackMany === "function").toBe(adapter.capabilities.includes("multi_track"));
    expect(typeof adapter.findShipments === "function").toBe(adapter.capabilities.includes("lookup"));
    expect(adapter.trackingBudget.requestsPerMinute).toBeGreaterThan(0);
  });
});
