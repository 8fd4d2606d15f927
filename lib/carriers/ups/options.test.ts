import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import type { AdapterContext, AdapterMessage } from "@/lib/carriers/types";
import { upsAdapter } from "@/lib/carriers/ups/adapter";
import { startCarrierEmulator } from "@/test/emulator";
import type { Emulator, Operation } from "@/test/emulator/server";
import { upsInternationalShipRequest, upsRateRequest, upsShipRequest, withUpsContext } from "@/test/ups-context";

/**
 * The typed options through the UPS adapter and the emulator's UPS, which validates the requests against
 * Shipping.yaml and Rating.yaml, checks the service options' prose rules and prices each option.
 */

let emulator: Emulator;
let tokens = new TokenCache();

beforeAll(async () => {
  emulator = await startCarrierEmulator();
});
afterEach(() => {
  emulator.reset();
  emulator.assertContractKept();
  tokens = new TokenCache();
});
afterAll(() => emulator.close());

function run<T>(op: (ctx: AdapterContext) => Promise<T>) {
  return withUpsContext({ baseUrl: `${emulator.url}/ups`, tokens }, op);
}

const sent = (operation: Operation) => {
  const found = emulator.calls.filter((c) => c.carrier === "ups" && c.operation === operation);
  return JSON.parse(found[found.length - 1]!.body);
};
const unsupported = (messages: AdapterMessage[]) =>
  messages.filter((m) => m.code === "not_supported").map((m) => m.details?.field);

describe("UPS service options", () => {
  it("buys Next Day Air with an adult signature, insurance and Saturday delivery, each sent and charged", async () => {
    const parcel = upsShipRequest().parcels[0]!;
    const req = upsShipRequest({
      service: "01",
      parcels: [parcel, parcel],
      options: {
        signature_confirmation: "adult",
        insurance: { amount: 500, currency: "USD" },
        saturday_delivery: true,
      },
    });
    const { data, messages } = await run((ctx) => upsAdapter.ship(ctx, req));
    const shipment = sent("ship").ShipmentRequest.Shipment;
    expect(shipment.ShipmentServiceOptions).toEqual({ SaturdayDeliveryIndicator: "" });
    // The insured amount is the shipment's, split over its packages.
    for (const pkg of shipment.Package) {
      expect(pkg.PackageServiceOptions).toEqual({
        DeliveryConfirmation: { DCISType: "3" },
        DeclaredValue: { CurrencyCode: "USD", MonetaryValue: "250.00" },
      });
    }
    expect(unsupported(messages)).toEqual([]);
    const names = data.charge!.extra_charges.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(["Delivery confirmation", "Declared value", "Saturday delivery"]));
  });

  it("a signature abroad is the shipment's (DCISType 1), beside the international forms", async () => {
    const { messages } = await run((ctx) =>
      upsAdapter.ship(ctx, upsInternationalShipRequest({ service: "07", options: { signature_confirmation: true } })),
    );
    const shipment = sent("ship").ShipmentRequest.Shipment;
    expect(shipment.ShipmentServiceOptions.DeliveryConfirmation).toEqual({ DCISType: "1" });
    expect(shipment.ShipmentServiceOptions.InternationalForms).toBeDefined();
    expect(shipment.Package[0].PackageServiceOptions).toBeUndefined();
    expect(unsupported(messages)).toEqual([]);
  });

  it("Saturday delivery on Ground is not sent, with a warning naming the option", async () => {
    const { messages } = await run((ctx) =>
      upsAdapter.ship(ctx, upsShipRequest({ service: "03", options: { saturday_delivery: true } })),
    );
    expect(sent("ship").ShipmentRequest.Shipment.ShipmentServiceOptions).toBeUndefined();
    expect(messages).toContainEqual(
      expect.objectContaining({
        code: "not_supported",
        level: "warning",
        details: { field: "options.saturday_delivery" },
      }),
    );
  });

  it("an unknown key and another carrier's option are reported, not ignored; UPS's own are not", async () => {
    const { messages } = await run((ctx) =>
      upsAdapter.ship(
        ctx,
        upsShipRequest({
          options: { email_notification: true, fedex_one_rate: true, ups_billing_country_code: "US", currency: "USD" },
        }),
      ),
    );
    expect(unsupported(messages).sort()).toEqual(["options.email_notification", "options.fedex_one_rate"]);
  });

  it("quotes include the options: one service rated with them costs more, by UPS's itemized charges", async () => {
    const plain = await run((ctx) => upsAdapter.rate(ctx, upsRateRequest({ services: ["01"] })));
    const withOptions = await run((ctx) =>
      upsAdapter.rate(
        ctx,
        upsRateRequest({ services: ["01"], options: { signature_confirmation: "standard", saturday_delivery: true } }),
      ),
    );
    const shipment = sent("rate").RateRequest.Shipment;
    expect(shipment.ShipmentServiceOptions).toEqual({ SaturdayDeliveryIndicator: "" });
    expect(shipment.Package[0].PackageServiceOptions).toEqual({ DeliveryConfirmation: { DCISType: "2" } });
    const quote = withOptions.data[0]!;
    expect(quote.total_charge).toBeGreaterThan(plain.data[0]!.total_charge);
    expect(quote.extra_charges.map((c) => c.name)).toEqual(
      expect.arrayContaining(["Delivery confirmation", "Saturday delivery"]),
    );
  });

  it("the emulator refuses a package-level signature between countries (the appendix's pairs)", async () => {
    await run((ctx) => upsAdapter.ship(ctx, upsInternationalShipRequest({ service: "07" })));
    const call = emulator.calls.filter((c) => c.carrier === "ups" && c.operation === "ship").at(-1)!;
    const body = JSON.parse(call.body);
    // What the adapter never sends (it puts a signature abroad on the shipment): the emulator refuses it as UPS would.
    body.ShipmentRequest.Shipment.Package[0].PackageServiceOptions = { DeliveryConfirmation: { DCISType: "2" } };
    const headers = Object.fromEntries(
      Object.entries(call.headers).filter(
        (e): e is [string, string] => typeof e[1] === "string" && e[0] !== "content-length",
      ),
    );
    const answer = await fetch(`${emulator.url}/ups${call.path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(await answer.json())).toMatch(/Package level DeliveryConfirmation is not valid for US\/GB/);
  });
});
