import { describe, expect, it } from "vitest";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import type { CarrierRequest, CarrierResponse } from "@/lib/carriers/http/client";
import type { AdapterContext } from "@/lib/carriers/types";
import { sendAuthorized } from "@/lib/carriers/usps/auth";
import { USPS_CREDENTIALS } from "@/test/usps-context";

/**
 * USPS's two tokens with answers the emulator does not give: a token answer without a token, a payment token
 * refused once (401) and then granted, refused twice. Scripted answers, in the order the adapter asks.
 */

const answer = (status: number, body: unknown): CarrierResponse => {
  const text = JSON.stringify(body);
  return {
    status,
    headers: new Headers({ "content-type": "application/json" }),
    body: new TextEncoder().encode(text),
    text: () => text,
    json: <T>() => JSON.parse(text) as T,
  };
};

function scripted(...answers: CarrierResponse[]) {
  const sent: CarrierRequest[] = [];
  const ctx = {
    connection: {
      id: "car_t",
      carrier_name: "usps",
      carrier_id: "usps-t",
      test_mode: true,
      config: {},
      credentials: USPS_CREDENTIALS,
    },
    http: {
      request: async (req: CarrierRequest) => {
        sent.push(req);
        const next = answers.shift();
        if (!next) throw new Error(`no answer scripted for ${req.url}`);
        return next;
      },
    },
    tokens: new TokenCache(),
    signal: new AbortController().signal,
    now: () => new Date(),
    ledger: null,
    baseUrl: "https://usps.test",
  } as unknown as AdapterContext;
  return { ctx, sent };
}

const token = (t: string) => answer(200, { access_token: t, token_type: "Bearer", expires_in: 28800 });
const payment = (t: string) => answer(200, { paymentAuthorizationToken: t });
const label = () => ({ method: "POST" as const, url: "https://usps.test/labels/v3/label", operation: "ship" as const });

describe("USPS tokens", () => {
  it.each([{ token_type: "Bearer" }, { access_token: "" }, { access_token: 42 }, null])(
    "a token answer without a token (%j) is carrier_bad_response",
    async (body) => {
      const { ctx } = scripted(answer(200, body));
      await expect(sendAuthorized(ctx, label)).rejects.toMatchObject({
        code: "carrier_bad_response",
        message: "USPS answered the token request without a token.",
      });
    },
  );

  it.each([{}, { paymentAuthorizationToken: "" }, { paymentAuthorizationToken: 7 }])(
    "a payment answer without a token (%j) is carrier_bad_response",
    async (body) => {
      const { ctx } = scripted(token("a1"), answer(200, body));
      await expect(sendAuthorized(ctx, label, { payment: true })).rejects.toMatchObject({
        code: "carrier_bad_response",
        message: "USPS answered the payment authorization without a token.",
      });
    },
  );

  it("a label refused 401 even with a fresh access token asks for a new payment token once, then goes through", async () => {
    const { ctx, sent } = scripted(
      token("a1"),
      payment("p1"),
      answer(401, {}),
      token("a2"),
      answer(401, {}),
      payment("p2"),
      answer(200, { ok: 1 }),
    );
    const res = await sendAuthorized(ctx, label, { payment: true });
    expect(res.status).toBe(200);
    const labels = sent.filter((r) => r.url.endsWith("/labels/v3/label"));
    expect(labels.map((r) => [r.headers?.Authorization, r.headers?.["X-Payment-Authorization-Token"]])).toEqual([
      ["Bearer a1", "p1"],
      ["Bearer a2", "p1"],
      ["Bearer a2", "p2"],
    ]);
  });

  it("refused 401 again with a new payment token: carrier_auth_failed naming the payment account", async () => {
    const { ctx } = scripted(
      token("a1"),
      payment("p1"),
      answer(401, {}),
      token("a2"),
      answer(401, {}),
      payment("p2"),
      answer(401, {}),
      token("a3"),
      answer(401, {}),
    );
    await expect(sendAuthorized(ctx, label, { payment: true })).rejects.toMatchObject({
      code: "carrier_auth_failed",
      message: expect.stringMatching(/^USPS refused the payment account EPS 1000012345/),
    });
  });

  it("a call refused 401 gets a fresh access token once; a second 401 is the OAuth client's refusal", async () => {
    const { ctx, sent } = scripted(token("a1"), answer(401, {}), token("a2"), answer(401, {}));
    await expect(sendAuthorized(ctx, label)).rejects.toMatchObject({
      code: "carrier_auth_failed",
      message: expect.stringMatching(/^USPS refused the OAuth client/),
    });
    const calls = sent.filter((r) => r.url.endsWith("/labels/v3/label"));
    expect(calls.map((r) => r.headers?.Authorization)).toEqual(["Bearer a1", "Bearer a2"]);
  });
});
