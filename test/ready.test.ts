import { describe, expect, it } from "vitest";
import { GET as ready } from "@/app/api/ready/route";
import { GET as health } from "@/app/api/health/route";

// On either engine (embedded PGlite too, whose database cannot go away): the instance is ready once its database
// answers. Down and back on Postgres: test/db-outage.test.ts, test/db-restart.test.ts.
describe("readiness and liveness", () => {
  it("/api/ready answers 200 when the database answers, never cached", async () => {
    const res = await ready();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready" });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("/api/health answers without the database", async () => {
    const res = health();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });
});
