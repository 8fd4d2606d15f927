import { afterEach, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { GET, POST, PUT } from "@/app/api/inngest/route";
import { resetEnvCache } from "@/lib/env";

const INNGEST_VARIABLES = ["INNGEST_SIGNING_KEY", "INNGEST_BASE_URL", "INNGEST_DEV"] as const;
const saved = Object.fromEntries(INNGEST_VARIABLES.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of INNGEST_VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetEnvCache();
});

const request = (method: string) =>
  new NextRequest("http://localhost/api/inngest", { method, ...(method === "GET" ? {} : { body: "{}" }) });

describe("/api/inngest", () => {
  it("answers 503 not_configured in the envelope, for every method Inngest uses, while Inngest is not set up", async () => {
    for (const name of INNGEST_VARIABLES) delete process.env[name];
    resetEnvCache();
    for (const [method, handler] of [
      ["GET", GET],
      ["POST", POST],
      ["PUT", PUT],
    ] as const) {
      const res = await handler(request(method), { params: Promise.resolve({}) });
      expect(res.status, method).toBe(503);
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
      expect(await res.json()).toEqual({
        errors: [{ code: "not_configured", message: expect.stringContaining("INNGEST_SIGNING_KEY"), field: null }],
      });
    }
  });

  it("is Inngest's own endpoint once it is set up", async () => {
    process.env.INNGEST_DEV = "1";
    resetEnvCache();
    const res = await GET(request("GET"), { params: Promise.resolve({}) });
    expect(res.status).not.toBe(503);
    expect(res.headers.get("x-inngest-sdk-handled")).toBe("true");
  });
});
