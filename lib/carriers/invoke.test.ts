import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { log } from "@/lib/log";
import { deadlineFor, invokeCarrier } from "@/lib/carriers/invoke";
import { CarrierError, carrierCode, type AdapterContext, type ConnectionInfo } from "@/lib/carriers/types";

const connection = (over: Partial<ConnectionInfo> = {}): ConnectionInfo => ({
  id: "car_1",
  carrier_name: "sandbox",
  carrier_id: "sbx-main",
  test_mode: true,
  config: {},
  credentials: {},
  ...over,
});

/** An adapter call that never answers and ignores its signal: only the deadline ends it. */
const hangs = () => new Promise<never>(() => {});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetEnvCache();
});

/** Runs a hanging call on fake timers: still pending at `ms - 1`, and its outcome at `ms`. */
async function endsAt(ms: number, info: ConnectionInfo) {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  let settled = false;
  const outcome = invokeCarrier(info, "rates", undefined, hangs).finally(() => (settled = true));
  await vi.advanceTimersByTimeAsync(ms - 1);
  expect(settled).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(settled).toBe(true);
  return outcome;
}

describe("the carrier deadline", () => {
  it("is 10 s by default", async () => {
    vi.stubEnv("CARRIER_DEADLINE_MS", undefined);
    resetEnvCache();
    expect(deadlineFor({ config: {} })).toBe(10_000);
    const outcome = await endsAt(10_000, connection());
    expect(outcome).toEqual({
      ok: false,
      messages: [
        {
          carrier_name: "sandbox",
          carrier_id: "sbx-main",
          code: "carrier_timeout",
          message: "Sandbox did not answer in time.",
          level: "error",
          details: {},
        },
      ],
    });
  });

  it("is CARRIER_DEADLINE_MS when set, and a connection's deadline_ms wins over it", async () => {
    vi.stubEnv("CARRIER_DEADLINE_MS", "2500");
    resetEnvCache();
    expect((await endsAt(2500, connection())).messages.map((m) => m.code)).toEqual(["carrier_timeout"]);
    expect((await endsAt(700, connection({ config: { deadline_ms: 700 } }))).ok).toBe(false);
    // Only a number counts; anything else stored there falls back to the setting.
    expect(deadlineFor({ config: { deadline_ms: "700" } })).toBe(2500);
  });
});

describe("invokeCarrier", () => {
  it("hands the adapter the connection, the shared token cache, a clock, its deadline's signal and an HTTP client", async () => {
    let seen: AdapterContext | undefined;
    const outcome = await invokeCarrier(connection(), "rates", undefined, async (adapter, ctx) => {
      seen = ctx;
      expect(adapter.carrier_name).toBe("sandbox");
      return { data: 42, messages: [{ code: carrierCode("note"), message: "fine", level: "warning" as const }] };
    });
    expect(outcome).toEqual({
      ok: true,
      data: 42,
      messages: [
        {
          carrier_name: "sandbox",
          carrier_id: "sbx-main",
          code: "note",
          message: "fine",
          level: "warning",
          details: {},
        },
      ],
    });
    expect(seen?.connection.id).toBe("car_1");
    expect(seen?.baseUrl).toBe(""); // the sandbox has no endpoints
    expect(seen?.signal.aborted).toBe(false);
    expect(seen?.now()).toBeInstanceOf(Date);
    expect(typeof seen?.http.request).toBe("function");
    expect(seen?.ledger).toBeNull();
  });

  it("aims a networked adapter at the test or live endpoint by test_mode, or at the emulator when one is set", async () => {
    const baseUrl = async (info: ConnectionInfo) => {
      let url: string | undefined;
      await invokeCarrier(info, "rates", undefined, async (_adapter, ctx) => {
        url = ctx.baseUrl;
        return { data: null, messages: [] };
      });
      return url;
    };
    vi.stubEnv("CARRIER_EMULATOR_URL", "");
    resetEnvCache();
    expect(await baseUrl(connection({ carrier_name: "ups", test_mode: true }))).toBe("https://wwwcie.ups.com");
    expect(await baseUrl(connection({ carrier_name: "ups", test_mode: false }))).toBe("https://onlinetools.ups.com");
    vi.stubEnv("CARRIER_EMULATOR_URL", "http://127.0.0.1:4010/");
    resetEnvCache();
    expect(await baseUrl(connection({ carrier_name: "ups", test_mode: false }))).toBe("http://127.0.0.1:4010/ups");
  });

  it("turns a carrier's refusal into its messages and an adapter bug into carrier_bad_response", async () => {
    const refused = await invokeCarrier(connection(), "rates", undefined, async () => {
      throw new CarrierError("carrier_auth_failed", "bad key");
    });
    expect(refused).toEqual({
      ok: false,
      messages: [expect.objectContaining({ carrier_id: "sbx-main", code: "carrier_auth_failed", message: "bad key" })],
    });

    const error = vi.spyOn(log(), "error");
    const bug = await invokeCarrier(connection(), "rates", undefined, async () => {
      throw new TypeError("undefined is not a function");
    });
    expect(bug).toEqual({
      ok: false,
      messages: [
        expect.objectContaining({
          code: "carrier_bad_response",
          message: "Sandbox answered in a way we could not process.",
          level: "error",
        }),
      ],
    });
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({ msg: "carrier adapter failed", carrier_id: "sbx-main" }),
    );
  });

  it("answers not_supported for a carrier without an adapter", async () => {
    const run = vi.fn();
    const outcome = await invokeCarrier(connection({ carrier_name: "pigeon" }), "rates", undefined, run);
    expect(outcome).toEqual({
      ok: false,
      messages: [
        {
          carrier_name: "pigeon",
          carrier_id: "sbx-main",
          code: "not_supported",
          message: "Carrier pigeon is not supported.",
          level: "error",
          details: {},
        },
      ],
    });
    expect(run).not.toHaveBeenCalled();
  });

  it("logs one carrier_operation line with its outcome and codes", async () => {
    const info = vi.spyOn(log(), "info");
    await invokeCarrier(connection(), "track", undefined, async () => ({
      data: 1,
      messages: [{ code: carrierCode("a"), message: "m", level: "info" as const }],
    }));
    expect(info).toHaveBeenCalledWith({
      msg: "carrier_operation",
      carrier_name: "sandbox",
      carrier_id: "sbx-main",
      connection_id: "car_1",
      operation: "track",
      outcome: "ok",
      codes: ["a"],
      duration_ms: expect.any(Number),
    });
  });

  it("logs a refusal as an error with its codes, and the operation's duration on the clock", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    vi.advanceTimersByTime(5_000); // the clock does not start at zero
    const info = vi.spyOn(log(), "info");
    const outcome = invokeCarrier(connection(), "rates", undefined, async () => {
      await new Promise((resolve) => setTimeout(resolve, 250));
      throw new CarrierError("carrier_auth_failed", "bad key");
    });
    await vi.advanceTimersByTimeAsync(250);
    expect((await outcome).ok).toBe(false);
    expect(info).toHaveBeenCalledWith({
      msg: "carrier_operation",
      carrier_name: "sandbox",
      carrier_id: "sbx-main",
      connection_id: "car_1",
      operation: "rates",
      outcome: "error",
      codes: ["carrier_auth_failed"],
      duration_ms: 250,
    });
  });
});
