import { describe, expect, it } from "vitest";
import { ApiProblem, type ApiRequest } from "@/lib/client/api";
import type { Rate } from "@/lib/schemas/rate";
import type { Shipment } from "@/lib/schemas/shipment";
import { BuyError, buyLabel, outcomeUnknown, type Api } from "./buy-label";
import { attemptAfterFailure, attemptFor, isTransient, newAttemptKey, type PurchaseAttempt } from "./purchase-attempt";
import { rate } from "./test-rates";

const chosen = rate({ id: "rat_proxy", service: "SBX_GROUND", total_charge: 10.85 });

/**
 * A server that keeps the API's idempotency promise: a key's first answer is replayed, a key still running answers
 * 409 idempotency_in_progress. It counts labels sold; `loseNextAnswer` sells and then drops the answer.
 */
function fakeServer({ price = 10.85, services = ["SBX_GROUND"] } = {}) {
  const answers = new Map<string, Promise<unknown>>();
  const running = new Set<string>();
  const calls: { path: string; key?: string; body: unknown }[] = [];
  const state = { sold: 0, created: 0, loseNextAnswer: false, refuseNextPurchase: false };

  const shipment = (): Shipment =>
    ({
      id: `shp_${state.created}`,
      status: "created",
      rates: services.map((service) => rate({ id: `rat_${service}_stored`, service, total_charge: price })),
      messages: [],
    }) as unknown as Shipment;

  async function handle(path: string, request: ApiRequest): Promise<unknown> {
    await new Promise((resolve) => setImmediate(resolve)); // answers on a later turn, like a real round trip
    if (path === "/v1/shipments") {
      state.created++;
      return shipment();
    }
    if (state.refuseNextPurchase) {
      state.refuseNextPurchase = false;
      throw new ApiProblem(424, [], [{ code: "SBX_DOWN", level: "error" } as never], null);
    }
    state.sold++;
    const id = path.split("/")[3];
    return {
      id,
      status: "purchased",
      selected_rate_id: (request.body as { selected_rate_id: string }).selected_rate_id,
    };
  }

  const api: Api = async <T>(path: string, request: ApiRequest): Promise<T> => {
    calls.push({ path, key: request.idempotencyKey, body: request.body });
    const key = request.idempotencyKey!;
    if (running.has(key)) {
      throw new ApiProblem(409, [{ code: "idempotency_in_progress", message: "busy", field: null }], [], null);
    }
    let answer = answers.get(key);
    if (!answer) {
      running.add(key);
      answer = handle(path, request).finally(() => running.delete(key));
      answers.set(key, answer);
      // 5xx would free the key; every failure here is an answer that replays.
    }
    const result = (await answer) as T;
    if (state.loseNextAnswer && path.endsWith("/purchase")) {
      state.loseNextAnswer = false;
      throw new TypeError("Failed to fetch");
    }
    return result;
  };
  return { api, calls, state };
}

// The client's wait between retries, without the time: a turn of the event loop lets the fake server move on.
const noSleep = () => new Promise<void>((resolve) => setImmediate(resolve));

function newAttempt(): PurchaseAttempt {
  return attemptFor(null, JSON.stringify({ body: 1 }), () => "key-1");
}

function buy(server: ReturnType<typeof fakeServer>, attempt: PurchaseAttempt, rateChosen: Rate = chosen) {
  return buyLabel({
    api: server.api,
    attempt,
    body: { body: 1 },
    chosen: rateChosen,
    onCreated: (s) => (attempt.shipment = s),
    sleep: noSleep,
  });
}

describe("buyLabel", () => {
  it("creates the shipment, then buys the shipment's own rate for the chosen service, one key each", async () => {
    const server = fakeServer({ services: ["SBX_2DAY", "SBX_GROUND"] });
    const result = await buy(server, newAttempt());
    expect(result).toMatchObject({ kind: "bought", previous: null, rate: { id: "rat_SBX_GROUND_stored" } });
    expect(server.calls.map((c) => [c.path, c.key])).toEqual([
      ["/v1/shipments", "key-1:create"],
      ["/v1/shipments/shp_1/purchase", "key-1:buy"],
    ]);
    expect(server.calls[1]!.body).toEqual({ selected_rate_id: "rat_SBX_GROUND_stored" });
  });

  it("buys one label when the same attempt is sent twice at once (a double click past the button lock)", async () => {
    const server = fakeServer();
    const attempt = newAttempt();
    const results = await Promise.all([buy(server, attempt), buy(server, attempt)]);
    expect(results.map((r) => r.kind)).toEqual(["bought", "bought"]);
    expect(server.state).toMatchObject({ created: 1, sold: 1 });
  });

  it("buys one label when the answer is lost and the clerk retries", async () => {
    const server = fakeServer();
    let attempt = newAttempt();
    server.state.loseNextAnswer = true;
    const lost = await buy(server, attempt).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(BuyError);
    expect(isTransient((lost as BuyError).problem)).toBe(true);
    attempt = attemptAfterFailure(attempt, "buy", (lost as BuyError).problem)!;

    const retried = await buy(server, attempt);
    expect(retried.kind).toBe("bought");
    expect(server.state).toMatchObject({ created: 1, sold: 1 });
    expect(server.calls.filter((c) => c.path.endsWith("/purchase")).map((c) => c.key)).toEqual([
      "key-1:buy",
      "key-1:buy",
    ]);
  });

  it("asks again on the same draft with a new purchase key after the carrier refused", async () => {
    const server = fakeServer();
    let attempt = newAttempt();
    server.state.refuseNextPurchase = true;
    const refused = (await buy(server, attempt).catch((e: unknown) => e)) as BuyError;
    expect(refused.stage).toBe("buy");
    expect(refused.shipmentId).toBe("shp_1");
    attempt = attemptAfterFailure(attempt, "buy", refused.problem)!;

    expect((await buy(server, attempt)).kind).toBe("bought");
    expect(server.state).toMatchObject({ created: 1, sold: 1 });
    expect(server.calls.at(-1)!.key).toBe("key-1:buy:1");
  });

  it("stops before buying when the carrier's price moved, and buys once the clerk accepts it", async () => {
    const server = fakeServer({ price: 11.2 });
    const attempt = newAttempt();
    const stopped = await buy(server, attempt);
    expect(stopped).toMatchObject({ kind: "price_changed", rate: { total_charge: 11.2 }, chosen });
    expect(server.state.sold).toBe(0);

    attempt.acceptedRateId = stopped.kind === "price_changed" ? stopped.rate.id : null;
    const bought = await buy(server, attempt);
    expect(bought).toMatchObject({ kind: "bought", previous: chosen, rate: { total_charge: 11.2 } });
    expect(server.state).toMatchObject({ created: 1, sold: 1 });
  });

  it("says so when the chosen service is no longer offered", async () => {
    const server = fakeServer({ services: ["SBX_2DAY"] });
    expect((await buy(server, newAttempt())).kind).toBe("service_gone");
    expect(server.state.sold).toBe(0);
  });

  it("ends the attempt when creation was refused (nothing was stored)", async () => {
    const refusing: Api = async () => {
      throw new ApiProblem(400, [{ code: "validation_error", message: "must not be empty", field: "x" }], [], null);
    };
    const attempt = newAttempt();
    const error = (await buyLabel({
      api: refusing,
      attempt,
      body: {},
      chosen,
      onCreated: () => {},
    }).catch((e: unknown) => e)) as BuyError;
    expect(error.stage).toBe("create");
    expect(attemptAfterFailure(attempt, "create", error.problem)).toBeNull();
  });
});

describe("attempts", () => {
  it("keeps the key while the request is the same, and draws a new one when it changes", () => {
    let n = 0;
    const next = () => `k${++n}`;
    const first = attemptFor(null, "a", next);
    expect(attemptFor(first, "a", next)).toBe(first);
    expect(attemptFor(first, "b", next).key).toBe("k2");
  });

  it("draws keys with or without crypto.randomUUID (plain-HTTP pages lack it)", () => {
    expect(newAttemptKey()).toMatch(/^[0-9a-f-]{36}$/);
    const insecure = { getRandomValues: crypto.getRandomValues.bind(crypto) } as Pick<Crypto, "getRandomValues">;
    const key = newAttemptKey(insecure);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(newAttemptKey(insecure)).not.toBe(key);
  });

  it("keeps the keys after failures that may not have been answered", () => {
    const attempt = newAttempt();
    for (const error of [
      new TypeError("Failed to fetch"),
      new ApiProblem(503, [], [], null),
      new ApiProblem(429, [], [], null),
      new ApiProblem(409, [{ code: "idempotency_in_progress", message: "", field: null }], [], null),
    ]) {
      expect(attemptAfterFailure(attempt, "create", error)).toBe(attempt);
    }
  });

  it("recognises a purchase whose outcome is unknown", () => {
    const unknown = new ApiProblem(409, [{ code: "purchase_outcome_unknown", message: "m", field: null }], [], null);
    expect(outcomeUnknown(new BuyError("buy", unknown, "shp_1"))).toBe(true);
    const timedOut = new ApiProblem(424, [], [{ code: "purchase_outcome_unknown" } as never], null);
    expect(outcomeUnknown(timedOut)).toBe(true);
    expect(outcomeUnknown(new ApiProblem(424, [], [], null))).toBe(false);
  });
});
