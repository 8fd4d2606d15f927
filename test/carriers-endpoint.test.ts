import { describe, expect, it } from "vitest";
import { GET } from "@/app/v1/carriers/route";
import { CARRIER_NAMES } from "@/lib/carriers/names";
import { CarrierList } from "@/lib/schemas/carrier";
import { call, makeOrg } from "./helpers";

describe("GET /v1/carriers", () => {
  it("declares every carrier: services, labels, schemas and tracking budget", async () => {
    const { key } = await makeOrg();
    const res = await call(GET, "GET", "/v1/carriers", { key });
    expect(res.status).toBe(200);
    const { results } = CarrierList.parse(res.body);
    expect(results.map((c) => c.carrier_name)).toEqual([...CARRIER_NAMES]);
    const sandbox = results.find((c) => c.carrier_name === "sandbox")!;
    expect(sandbox).toMatchObject({
      display_name: "Sandbox",
      label_types: ["PDF", "ZPL", "PNG"],
      label_sizes: ["4x6"],
      tracking_budget: { concurrency: 4, requests_per_minute: 6000, batch_size: 30 },
    });
    expect(sandbox.services).toContainEqual({ code: "SBX_GROUND", name: "Sandbox Ground", scope: "domestic" });
    expect(sandbox.credentials_schema).toMatchObject({ type: "object", properties: { api_key: { type: "string" } } });
    expect(sandbox.config_schema).toMatchObject({ additionalProperties: false });
  });

  it("marks secret credentials writeOnly, so a form can mask them", async () => {
    const { key } = await makeOrg();
    const { results } = CarrierList.parse((await call(GET, "GET", "/v1/carriers", { key })).body);
    const props = (name: string) =>
      results.find((c) => c.carrier_name === name)!.credentials_schema.properties as Record<
        string,
        { writeOnly?: boolean }
      >;
    expect(props("ups").client_secret!.writeOnly).toBe(true);
    expect(props("ups").client_id!.writeOnly).toBeUndefined();
    expect(props("fedex").secret_key!.writeOnly).toBe(true);
    expect(props("fedex").track_secret_key!.writeOnly).toBe(true);
    expect(props("sandbox").api_key!.writeOnly).toBe(true);
    expect(props("dhl_express").password!.writeOnly).toBe(true);
    expect(props("dhl_express").username!.writeOnly).toBeUndefined();
    expect(props("canadapost").api_password!.writeOnly).toBe(true);
    expect(props("canadapost").api_username!.writeOnly).toBeUndefined();
    const canadapost = results.find((c) => c.carrier_name === "canadapost")!;
    expect(canadapost.tracking_budget).toEqual({ concurrency: 1, requests_per_minute: 18, batch_size: 1 });
    expect(canadapost.label_sizes).toEqual(["4x6", "letter"]);
    const ups = results.find((c) => c.carrier_name === "ups")!;
    expect(ups.services).toContainEqual(expect.objectContaining({ code: "03" }));
    expect(ups.tracking_budget).toEqual({ concurrency: 2, requests_per_minute: 120, batch_size: 1 });
    expect(props("usps").client_secret!.writeOnly).toBe(true);
    expect(props("usps").account_number!.writeOnly).toBeUndefined();
    // USPS's hourly quota (about 60 an hour for a new app) as one call a minute.
    expect(results.find((c) => c.carrier_name === "usps")).toMatchObject({
      capabilities: ["rates", "ship", "void", "track", "refund_status", "address_validation"],
      label_types: ["PDF", "ZPL"],
      tracking_budget: { concurrency: 1, requests_per_minute: 1, batch_size: 1 },
    });
  });

  it("needs a key", async () => {
    expect((await call(GET, "GET", "/v1/carriers")).status).toBe(401);
  });
});
