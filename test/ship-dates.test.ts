import { describe, expect, it, vi } from "vitest";
import { POST as rates } from "@/app/v1/proxy/rates/route";
import { useRealTimersAfterEach } from "./clock";
import { call, makeOrg } from "./helpers";
import { rateRequest } from "./factories";

/**
 * Quotes count transit from the day the parcel leaves on the origin's calendar (the shipper is in Chicago): a
 * Friday-evening quote leaves on Monday, never on a Saturday taken from UTC, and a client's `shipping_date` is that
 * day when it has not passed there.
 */

useRealTimersAfterEach();

async function twoDay(at: string, options: Record<string, unknown> = {}) {
  const { key } = await makeOrg();
  vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(at) });
  return call(rates, "POST", "/v1/proxy/rates", { key, body: rateRequest({ services: ["SBX_2DAY"], options }) });
}

const delivery = (res: { body: { rates: { meta: { estimated_delivery: string } }[] } }) =>
  res.body.rates[0]!.meta.estimated_delivery;

describe("ship dates of a quote", () => {
  it("a Friday-afternoon quote in Chicago leaves on Friday: 2 business days is Tuesday", async () => {
    const res = await twoDay("2026-11-20T22:00:00Z"); // 16:00 CST
    expect(res.status).toBe(200);
    expect(delivery(res)).toBe("2026-11-24");
  });

  it("a Friday-evening quote in Chicago (Saturday in UTC) leaves on Monday: 2 business days is Wednesday", async () => {
    const res = await twoDay("2026-11-21T01:00:00Z"); // 19:00 CST
    expect(res.status).toBe(200);
    expect(delivery(res)).toBe("2026-11-25");
  });

  it("a client's shipping_date is the day it leaves", async () => {
    const res = await twoDay("2026-11-20T22:00:00Z", { shipping_date: "2026-11-25" });
    expect(res.status).toBe(200);
    expect(delivery(res)).toBe("2026-11-27");
    // purplship's local date-time form: only the day counts.
    const timed = await twoDay("2026-11-20T22:00:00Z", { shipping_date: "2026-11-25T09:30" });
    expect(delivery(timed)).toBe("2026-11-27");
  });

  it("Friday is still today in Chicago when UTC has moved on to Saturday", async () => {
    const res = await twoDay("2026-11-21T01:00:00Z", { shipping_date: "2026-11-20" });
    expect(res.status).toBe(200);
    // Past the cut-off: Monday, as without a date.
    expect(delivery(res)).toBe("2026-11-25");
  });

  it("refuses a shipping_date already past in the origin's zone, or not a date", async () => {
    for (const shipping_date of ["2026-11-19", "2026-02-30", "next friday", 20261125]) {
      const res = await twoDay("2026-11-20T22:00:00Z", { shipping_date });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ code: "validation_error", field: "options.shipping_date" }),
      ]);
    }
  });
});
