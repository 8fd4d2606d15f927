import { describe, expect, it } from "vitest";
import { GET as unknown, DELETE as unknownDelete } from "@/app/v1/[...path]/route";
import { PUT as putConnections } from "@/app/v1/connections/route";
import { POST as postTracking } from "@/app/v1/proxy/tracking/[carrier_name]/[tracking_number]/route";
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

  it("answers 405 with Allow for a method the route does not serve", async () => {
    const res = await call(putConnections, "PUT", "/v1/connections");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, POST");
    expect(res.body.errors[0].code).toBe("method_not_allowed");
    expect((await call(postTracking, "POST", "/v1/proxy/tracking/sandbox/X")).headers.get("allow")).toBe("GET");
  });
});
