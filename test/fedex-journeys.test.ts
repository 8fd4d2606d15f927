import { describe, expect, it } from "vitest";
import { GET as getShipment } from "@/app/v1/shipments/[id]/route";
import { POST as refreshTracker } from "@/app/v1/trackers/[id]/refresh/route";
import { invokeCarrier } from "@/lib/carriers/invoke";
import type { CarrierAdapter, TrackingResult } from "@/lib/carriers/types";
import { fedexEmulatorNumber } from "@/test/emulator/fedex";
import { addConnection, useCarrierEmulator } from "@/test/emulator-helpers";
import { FEDEX_CREDENTIALS } from "@/test/fedex-context";
import { call, makeOrg } from "./helpers";
import { createShipmentFor, purchaseFor } from "./factories";

/**
 * FedEx's unhappy journeys in the emulator (a failed attempt, a delay, a return to the shipper, a parcel FedEx
 * cannot find), through the adapter and through a managed tracker's refresh, with the emulator's clock moved on.
 */

const lab = useCarrierEmulator();

const HOUR = 3_600_000;

async function track(numbers: string[]): Promise<Record<string, TrackingResult>> {
  const conn = {
    id: "car_fedexjourneys",
    carrier_name: "fedex",
    carrier_id: "fedex",
    test_mode: true,
    config: {},
    credentials: FEDEX_CREDENTIALS,
  };
  const res = await invokeCarrier(conn, "track", undefined, (a: CarrierAdapter, ctx) => a.trackMany!(ctx, numbers));
  if (!res.ok) throw new Error(JSON.stringify(res.messages));
  return Object.fromEntries(
    Object.entries(res.data).map(([n, r]) => {
      if (!("status" in r)) throw new Error(`${n}: ${r.code}`);
      return [n, r];
    }),
  );
}

describe("FedEx journeys through the adapter (numbers sold the given hours ago)", () => {
  const sold = (hoursAgo: number, scenario: number) =>
    fedexEmulatorNumber({ soldAt: new Date(Date.now() - hoursAgo * HOUR), serial: 40 + scenario, scenario });

  it("a failed attempt (DE) is delivery_failed, then held for pickup (HL) is ready_for_pickup", async () => {
    const missed = sold(30, 6);
    const held = fedexEmulatorNumber({ soldAt: new Date(Date.now() - 40 * HOUR), serial: 60, scenario: 6 });
    const r = await track([missed, held]);
    expect(r[missed]!.status).toBe("delivery_failed");
    expect(r[missed]!.events[0]).toMatchObject({
      code: "DE",
      status: "delivery_failed",
      description: "Delivery exception: Customer not available or business closed",
    });
    expect(r[held]!.status).toBe("ready_for_pickup");
  });

  it("a delay (DY) is delivery_delayed, then the parcel arrives", async () => {
    const delayed = sold(13, 8);
    const arrived = fedexEmulatorNumber({ soldAt: new Date(Date.now() - 60 * HOUR), serial: 61, scenario: 8 });
    const r = await track([delayed, arrived]);
    expect(r[delayed]!.status).toBe("delivery_delayed");
    expect(r[arrived]!.status).toBe("delivered");
    expect(r[arrived]!.events.map((e) => e.code)).toContain("DY");
  });

  it("two failed attempts, then return to shipper (RS)", async () => {
    const back = sold(61, 5);
    const r = await track([back]);
    expect(r[back]!.status).toBe("return_to_sender");
    expect(r[back]!.events.map((e) => e.code).slice(0, 3)).toEqual(["RS", "DE", "OD"]);
  });

  it("a parcel FedEx cannot find is a shipment exception (SE): on_hold with FedEx's words, never guessed lost", async () => {
    const missing = sold(15, 4);
    const r = await track([missing]);
    expect(r[missing]!.status).toBe("on_hold");
    expect(r[missing]!.events[0]).toMatchObject({
      code: "SE",
      description: "Shipment exception: Package could not be located",
    });
  });
});

describe("FedEx journeys through a managed tracker's refresh", () => {
  // The emulator picks the journey from the label's customer reference.
  it.each([
    ["attempt", 29, "delivery_failed", "delivery_failed"],
    ["delay", 13, "delivery_delayed", "needs_attention"],
    ["return", 61, "return_to_sender", "delivery_failed"],
    ["lost", 15, "on_hold", "needs_attention"],
  ])("%s: after %i h the tracker is %s and its shipment %s", async (journey, hours, tracker, shipment) => {
    const { key } = await makeOrg();
    await addConnection(key, {
      carrier_name: "fedex",
      carrier_id: "fedex-main",
      credentials: FEDEX_CREDENTIALS,
      config: { label_stock: "4x6", pickup_type: "DROPOFF_AT_FEDEX_LOCATION" },
    });
    const created = await createShipmentFor(key, { carrier_ids: ["fedex-main"], reference: `journey-${journey}` });
    const bought = await purchaseFor(key, created);
    expect(bought.status).toBe(200);
    const { id, tracker_id } = bought.body.shipment;
    lab.skewMs = hours * HOUR;
    const refreshed = await call(refreshTracker, "POST", `/v1/trackers/${tracker_id}/refresh`, {
      key,
      params: { id: tracker_id },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.status).toBe(tracker);
    const after = await call(getShipment, "GET", `/v1/shipments/${id}`, { key, params: { id } });
    expect(after.body.status).toBe(shipment);
  });
});
