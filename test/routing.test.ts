import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { GET as unknown, DELETE as unknownDelete } from "@/app/v1/[...path]/route";
import { GET as unknownApi, POST as unknownApiPost } from "@/app/api/[...path]/route";
import { PUT as putConnections } from "@/app/v1/connections/route";
import { POST as postTracking } from "@/app/v1/proxy/tracking/[carrier_name]/[tracking_number]/route";
import { ROUTE_METHODS } from "@/lib/api/operation";
import { SERVED_METHODS, servedMethods } from "@/lib/api/served-methods";
import { call } from "./helpers";

describe("unknown endpoints and methods", () => {
  it("answers 404 not_found in the error envelope for a path no route serves", async () => {
    for (const handler of [unknown, unknownDelete]) {
      const res = await call(handler, "GET", "/v1/nothing/here");
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        errors: [{ code: "not_found", message: expect.stringContaining("/v1/nothing/here"), field: null }],
      });
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    }
  });

  it("answers the same under /api, where Next.js would render its not-found page without the page policy", async () => {
    for (const handler of [unknownApi, unknownApiPost]) {
      const res = await call(handler, "GET", "/api/nope");
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.body.errors[0]).toMatchObject({ code: "not_found", message: expect.stringContaining("/api/nope") });
    }
  });

  it("answers 405 with Allow for a method the route does not serve", async () => {
    const res = await call(putConnections, "PUT", "/v1/connections");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, POST");
    expect(res.body.errors[0].code).toBe("method_not_allowed");
    expect((await call(postTracking, "POST", "/v1/proxy/tracking/sandbox/X")).headers.get("allow")).toBe("GET");
  });
});

describe("the methods each path serves (the front door's Allow)", () => {
  const normalize = (path: string) => path.replace(/\{[^}]+\}|\[[^\]]+\]/g, "{}");

  /** Route files (their exported handlers that are not 405 refusals) and pages (GET), by path; catch-alls aside. */
  async function served(dir = "app"): Promise<[string, string[]][]> {
    // Route groups, "(dashboard)", name no segment of the URL.
    const path = normalize(dir.replace(/^app/, "").replace(/\/\([^)]+\)/g, "") || "/");
    const found: [string, string[]][] = [];
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !entry.name.startsWith("[...")) found.push(...(await served(join(dir, entry.name))));
      if (entry.name === "page.tsx") found.push([path, ["GET"]]);
      if (entry.name === "route.ts") {
        const handlers = (await import(resolve(dir, entry.name))) as Record<string, { refused?: true } | undefined>;
        found.push([path, ROUTE_METHODS.filter((m) => handlers[m] && !handlers[m].refused)]);
      }
    }
    return found;
  }

  it("are the route files' and pages' own", async () => {
    const table = Object.entries(SERVED_METHODS).map(([path, methods]) => [normalize(path), [...methods].sort()]);
    const files = (await served()).map(([path, methods]) => [path, methods.sort()]);
    expect(Object.fromEntries(table)).toEqual(Object.fromEntries(files));
    expect(table).toHaveLength(files.length);
  });

  it("are found for a concrete path, literal segments first", () => {
    expect(servedMethods("/v1/trackers/trk_1/refresh")).toEqual(["POST"]);
    expect(servedMethods("/v1/trackers/sandbox/SBX1")).toEqual(["GET", "POST"]);
    expect(servedMethods("/v1/connections/")).toEqual(["GET", "POST"]);
    expect(servedMethods("/v1/shipments//label")).toBeNull();
    expect(servedMethods("/v1/unknown")).toBeNull();
  });
});
