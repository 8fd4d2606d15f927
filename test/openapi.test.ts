import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/v1/openapi.json/route";
import { servedOperations } from "@/lib/api/openapi";
import { ROUTE_METHODS } from "@/lib/api/operation";

describe("GET /v1/openapi.json", () => {
  it("serves an OpenAPI 3.1 document generated from the zod schemas", async () => {
    const res = await GET(new Request("http://localhost/v1/openapi.json"));
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    const schemas = doc.components.schemas;
    for (const name of [
      "Address",
      "Parcel",
      "Payment",
      "Rate",
      "Shipment",
      "Tracker",
      "TrackingEvent",
      "Message",
      "Error",
      "Connection",
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
    // Output schemas list every field as required (nulls kept, no dropped keys).
    expect(schemas.Shipment.required).toEqual(
      expect.arrayContaining(["label", "tracking_number", "tracker_id", "messages"]),
    );
    expect(schemas.Address.properties.federal_tax_id).toBeDefined();
    // Statuses are enums from the vocabularies, the final `lost` included.
    const enumOf = (s: { $ref?: string; enum?: string[] }): string[] =>
      s.$ref ? enumOf(schemas[s.$ref.split("/").pop()!]) : (s.enum ?? []);
    expect(enumOf(schemas.Tracker.properties.status)).toContain("lost");
    expect(enumOf(schemas.Shipment.properties.status)).toContain("lost");
    // Input schemas follow validation: a parcel needs weight and weight_unit.
    expect(schemas.ParcelInput.required).toEqual(expect.arrayContaining(["weight", "weight_unit"]));
    expect(doc.paths["/v1/connections"].post.requestBody.content["application/json"].schema.$ref).toBe(
      "#/components/schemas/ConnectionCreate",
    );
    for (const [path, methods] of Object.entries({
      "/v1/shipments": ["get", "post"],
      "/v1/shipments/{id}": ["get", "delete"],
      "/v1/shipments/{id}/purchase": ["post"],
      "/v1/shipments/{id}/cancel": ["post"],
      "/v1/shipments/{id}/label": ["get"],
      "/v1/trackers": ["get"],
      "/v1/trackers/{carrier_name}/{tracking_number}": ["get", "post"],
      "/v1/trackers/{id}": ["get", "delete"],
      "/v1/trackers/{id}/refresh": ["post"],
      "/v1/api_keys": ["get", "post"],
      "/v1/api_keys/{id}": ["delete"],
    })) {
      expect(Object.keys(doc.paths[path] ?? {}).sort(), path).toEqual(methods.sort());
    }
    expect(doc.paths["/v1/shipments/{id}/label"].get.responses["200"].content["application/pdf"].schema.format).toBe(
      "binary",
    );
    expect(schemas.ShipmentCreate.required).toEqual(expect.arrayContaining(["shipper", "recipient", "parcels"]));
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z]+/g) ?? [];
    for (const ref of new Set(refs)) expect(schemas[ref.split("/").pop()!], ref).toBeDefined();
  });
});

describe("the OpenAPI document covers the API exactly", () => {
  /** Every route file under app/v1, with its path template ("[id]" → "{}"); the catch-all 404 route aside. */
  function routeFiles(dir = "app/v1"): { file: string; template: string }[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name.startsWith("[...") ? [] : routeFiles(path);
      if (entry.name !== "route.ts") return [];
      return [{ file: path, template: normalize("/" + dir.replace(/^app\//, "")) }];
    });
  }
  const normalize = (route: string) => route.replace(/\{[^}]+\}|\[[^\]]+\]/g, "{}");

  it("says list parameters are comma-separated (explode: false), as the API reads them", async () => {
    const doc = await (await GET(new Request("http://localhost/v1/openapi.json"))).json();
    const param = (path: string, name: string) =>
      doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name);
    for (const [path, name] of [
      ["/v1/audit_events", "action"],
      ["/v1/audit_events", "actor_type"],
      ["/v1/trackers", "status"],
      ["/v1/events", "type"],
    ] as const) {
      expect(param(path, name), `${path} ${name}`).toMatchObject({ style: "form", explode: false });
    }
    expect(param("/v1/audit_events", "actor_id")).not.toHaveProperty("explode");
  });

  it("describes every operation a route file serves, at the path of its file, and nothing else", async () => {
    const res = await GET(new Request("http://localhost/v1/openapi.json"));
    const doc = await res.json();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${normalize(path)}`))
      .sort();

    const served: string[] = [];
    for (const { file, template } of routeFiles()) {
      const mod = (await import(resolve(file))) as Record<string, unknown>;
      for (const method of ROUTE_METHODS) {
        const handler = mod[method] as { operation?: unknown; refused?: true } | undefined;
        expect(
          handler?.operation ?? handler?.refused,
          `${method} in ${file}: declared, or refused with 405`,
        ).toBeTruthy();
      }
      const operations = servedOperations([mod]);
      expect(operations.length, `${file} declares no operation`).toBeGreaterThan(0);
      for (const { method, operation } of operations) {
        expect(normalize(operation.route), `${method} in ${file}`).toBe(template);
        served.push(`${method.toUpperCase()} ${template}`);
      }
    }
    expect(documented).toEqual(served.sort());
  });
});
