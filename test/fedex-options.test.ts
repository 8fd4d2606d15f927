import { describe, expect, it } from "vitest";
import { invokeCarrier } from "@/lib/carriers/invoke";
import type {
  AdapterContext,
  AdapterMessage,
  CarrierAdapter,
  CarrierMessage,
  ConnectionInfo,
} from "@/lib/carriers/types";
import { useCarrierEmulator } from "@/test/emulator-helpers";
import { FEDEX_CREDENTIALS, fedexDomesticRate, fedexDomesticShip } from "@/test/fedex-context";

/**
 * The typed options and FedEx packaging through the FedEx adapter and the emulator's FedEx, which validates the
 * requests against ship-api.json and rate-api.json, checks the special services' prose rules and prices each one.
 */

const emulator = useCarrierEmulator();
let connections = 0;

function connection(config: Record<string, unknown> = {}): ConnectionInfo {
  return {
    id: `car_fedexopt${++connections}`,
    carrier_name: "fedex",
    carrier_id: "fedex",
    test_mode: true,
    config,
    credentials: FEDEX_CREDENTIALS,
  };
}

type Run<T> = (a: CarrierAdapter, ctx: AdapterContext) => Promise<{ data: T; messages: AdapterMessage[] }>;
const invoke = <T>(op: "rates" | "ship", run: Run<T>, conn = connection()) => invokeCarrier(conn, op, undefined, run);
const sent = (operation: string) => {
  const found = emulator.current.calls.filter((c) => c.operation === operation);
  return JSON.parse(found[found.length - 1]!.body).requestedShipment;
};
const unsupported = (messages: CarrierMessage[]) =>
  messages.filter((m) => m.code === "not_supported").map((m) => m.details?.field);

const box = (packaging_type: string | null) => ({ ...fedexDomesticShip().parcels[0]!, packaging_type });

describe("FedEx special services and packaging", () => {
  it("buys Priority Overnight in a FedEx box with One Rate, Saturday delivery, an adult signature and insurance", async () => {
    const bought = await invoke("ship", (a, ctx) =>
      a.ship(
        ctx,
        fedexDomesticShip({
          service: "PRIORITY_OVERNIGHT",
          parcels: [box("small_box")],
          options: {
            fedex_one_rate: true,
            saturday_delivery: true,
            signature_confirmation: "adult",
            insurance: 400,
            currency: "USD",
          },
        }),
      ),
    );
    expect(bought.ok).toBe(true);
    if (!bought.ok) return;
    const shipment = sent("ship");
    expect(shipment.packagingType).toBe("FEDEX_SMALL_BOX");
    expect(shipment.shipmentSpecialServices.specialServiceTypes).toEqual(["SATURDAY_DELIVERY", "FEDEX_ONE_RATE"]);
    expect(shipment.requestedPackageLineItems[0]).toMatchObject({
      packageSpecialServices: { specialServiceTypes: ["SIGNATURE_OPTION"], signatureOptionType: "ADULT" },
      declaredValue: { amount: 400, currency: "USD" },
    });
    expect(unsupported(bought.messages)).toEqual([]);
    const names = bought.data.charge!.extra_charges.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(["Saturday delivery", "Adult signature required", "Declared value"]));
  });

  it("One Rate in your own packaging, Saturday delivery on Ground: warnings, neither sent", async () => {
    const bought = await invoke("ship", (a, ctx) =>
      a.ship(
        ctx,
        fedexDomesticShip({ service: "FEDEX_GROUND", options: { fedex_one_rate: true, saturday_delivery: true } }),
      ),
    );
    expect(bought.ok).toBe(true);
    expect(sent("ship").packagingType).toBe("YOUR_PACKAGING");
    expect(sent("ship")).not.toHaveProperty("shipmentSpecialServices");
    expect(unsupported(bought.messages).sort()).toEqual(["options.fedex_one_rate", "options.saturday_delivery"]);
  });

  it("a signature with Ground Economy is refused before anything is bought", async () => {
    const refused = await invoke(
      "ship",
      (a, ctx) =>
        a.ship(ctx, fedexDomesticShip({ service: "SMART_POST", options: { signature_confirmation: "standard" } })),
      connection({ smart_post_hub_id: "5015" }),
    );
    expect(refused.ok).toBe(false);
    expect(refused.messages[0]).toMatchObject({
      code: "not_supported",
      level: "error",
      details: { field: "options.signature_confirmation" },
    });
    expect(emulator.current.calls.filter((c) => c.operation === "ship")).toEqual([]);
  });

  it("a quote with a signature leaves Ground Economy out, saying why; without one it is offered", async () => {
    const withHub = connection({ smart_post_hub_id: "5015" });
    const rate = (options: Record<string, unknown>) =>
      invoke("rates", (a, ctx) => a.rate(ctx, fedexDomesticRate({ options })), withHub);
    const unsigned = await rate({});
    const signed = await rate({ signature_confirmation: "standard" });
    if (!unsigned.ok || !signed.ok) throw new Error("rating failed");
    expect(unsigned.data.map((q) => q.service)).toContain("SMART_POST");
    expect(signed.data.map((q) => q.service)).not.toContain("SMART_POST");
    expect(signed.data.length).toBe(unsigned.data.length - 1);
    expect(unsupported(signed.messages)).toEqual(["options.signature_confirmation"]);
  });

  it("quotes include the options: surcharges per option, One Rate priced by packaging, not weight", async () => {
    const options = { signature_confirmation: true, saturday_delivery: true, fedex_one_rate: true };
    const rate = (weight: number, opts: Record<string, unknown>) =>
      invoke("rates", (a, ctx) =>
        a.rate(
          ctx,
          fedexDomesticRate({
            services: ["PRIORITY_OVERNIGHT"],
            parcels: [{ ...box("pak"), weight }],
            options: opts,
          }),
        ),
      );
    const plain = await rate(5, {});
    const light = await rate(5, options);
    const heavy = await rate(30, options);
    if (!plain.ok || !light.ok || !heavy.ok) throw new Error("rating failed");
    const shipment = sent("rate");
    expect(shipment.packagingType).toBe("FEDEX_PAK");
    expect(shipment.shipmentSpecialServices.specialServiceTypes).toEqual(["SATURDAY_DELIVERY", "FEDEX_ONE_RATE"]);
    expect(shipment.requestedPackageLineItems[0].packageSpecialServices.signatureOptionType).toBe("DIRECT");
    const quote = light.data[0]!;
    expect(quote.extra_charges.map((c) => c.name)).toEqual(
      expect.arrayContaining(["Saturday delivery", "Direct signature required"]),
    );
    expect(quote.total_charge).toBeGreaterThan(plain.data[0]!.total_charge);
    expect(heavy.data[0]!.total_charge).toBe(quote.total_charge);
  });

  it("an unknown key and UPS's option are reported by name; parcels packed differently ship as your packaging", async () => {
    const bought = await invoke("ship", (a, ctx) =>
      a.ship(
        ctx,
        fedexDomesticShip({
          parcels: [box("envelope"), box(null)],
          options: { email_notification: "a@b.example", ups_billing_country_code: "US", declared_value: 20 },
        }),
      ),
    );
    expect(bought.ok).toBe(true);
    expect(sent("ship").packagingType).toBe("YOUR_PACKAGING");
    expect(unsupported(bought.messages).sort()).toEqual([
      "options.email_notification",
      "options.ups_billing_country_code",
      "parcels.packaging_type",
    ]);
  });
});
