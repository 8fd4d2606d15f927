import { describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
const headers = { Authorization: `Token ${inject("apiKey")}`, "Content-Type": "application/json" };

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(baseUrl + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: res.headers.get("content-type")?.includes("json") ? await res.json() : await res.arrayBuffer(),
  };
}

describe("managed mode on the running server", () => {
  it("creates, buys, downloads the label, and the in-process refresh moves the tracker with no other process", async () => {
    // A fast sandbox: one simulated hour every 0.36 s, so the pickup scan (3 h) comes about a second after purchase.
    const conn = await api("POST", "/v1/connections", {
      carrier_name: "sandbox",
      carrier_id: "e2e-fast",
      config: { pace: 10_000 },
    });
    expect(conn.status).toBe(201);
    const created = await api("POST", "/v1/shipments", {
      shipper: {
        address_line1: "500 Industrial Way",
        city: "Chicago",
        state_code: "IL",
        postal_code: "60607",
        country_code: "US",
      },
      recipient: {
        person_name: "Bob",
        address_line1: "12 Elm St",
        city: "Austin",
        state_code: "TX",
        postal_code: "78701",
        country_code: "US",
      },
      parcels: [{ weight: 1.2, weight_unit: "KG" }],
      carrier_ids: ["e2e-fast"],
    });
    expect(created.status).toBe(201);
    const bought = await api("POST", `/v1/shipments/${created.body.id}/purchase`, {
      selected_rate_id: created.body.rates[0].id,
    });
    expect(bought.status).toBe(200);
    const shipment = bought.body.shipment;
    expect(shipment.status).toBe("purchased");

    const label = await api("GET", `/v1/shipments/${shipment.id}/label`);
    expect(label.status).toBe(200);
    expect(label.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(label.body as ArrayBuffer)
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    const deadline = Date.now() + 30_000;
    let tracker = (await api("GET", `/v1/trackers/${shipment.tracker_id}`)).body;
    while (tracker.status === "pending" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      tracker = (await api("GET", `/v1/trackers/${shipment.tracker_id}`)).body;
    }
    expect(tracker.status).not.toBe("pending");
    expect(tracker.events.length).toBeGreaterThan(1);
    expect(tracker.refreshed_at).not.toBeNull();
    const after = (await api("GET", `/v1/shipments/${shipment.id}`)).body;
    expect(["in_transit", "out_for_delivery", "delivered"]).toContain(after.status);
  });
});
