import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DatabaseCircuit, DatabaseDownError } from "./circuit";
import { isDatabaseUnavailable } from "./unavailable";

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
// drizzle wraps the driver's error; the circuit reads the cause.
const wrapped = (cause: unknown) => Object.assign(new Error("Failed query: select 1"), { cause });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function circuitWith(answers: boolean[]) {
  const probe = vi.fn(async () => {
    if (!answers.shift()) throw refused;
  });
  const changes: string[] = [];
  const circuit = new DatabaseCircuit({ probe, probeEveryMs: 200, onChange: (s) => changes.push(s) });
  return { circuit, probe, changes };
}

describe("the database circuit", () => {
  it("lets queries through until reaching the database fails, then refuses them at once as unavailable", () => {
    const { circuit, changes } = circuitWith([]);
    expect(() => circuit.check()).not.toThrow();
    circuit.observe(wrapped(refused));
    expect(circuit.isOpen).toBe(true);
    expect(changes).toEqual(["open"]);
    let thrown: unknown;
    try {
      circuit.check();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DatabaseDownError);
    expect(isDatabaseUnavailable(thrown)).toBe(true);
    circuit.stop();
  });

  it("is not opened by a live connection lost, a query's own error, or its own refusals", () => {
    const { circuit, probe } = circuitWith([]);
    for (const code of ["CONNECTION_CLOSED", "ECONNRESET", "57P01", "23505", "53300"]) {
      circuit.observe(wrapped(Object.assign(new Error(code), { code })));
    }
    circuit.observe(new Error("no code"));
    circuit.observe(new DatabaseDownError());
    expect(circuit.isOpen).toBe(false);
    expect(probe).not.toHaveBeenCalled();
  });

  it("opens on a connect timeout and on Postgres refusing connections while it starts", () => {
    for (const code of ["CONNECT_TIMEOUT", "57P03", "ETIMEDOUT", "EHOSTUNREACH"]) {
      const { circuit } = circuitWith([]);
      circuit.observe(Object.assign(new Error(code), { code }));
      expect(circuit.isOpen, code).toBe(true);
      circuit.stop();
    }
  });

  it("probes every probeEveryMs, one probe at a time, and closes on the first answered probe", async () => {
    const { circuit, probe, changes } = circuitWith([false, false, true]);
    circuit.observe(refused);
    await vi.advanceTimersByTimeAsync(199);
    expect(probe).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(circuit.isOpen).toBe(true);
    // A second failure while open does not start a second probe loop.
    circuit.observe(refused);
    await vi.advanceTimersByTimeAsync(200);
    expect(probe).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(200);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(circuit.isOpen).toBe(false);
    expect(() => circuit.check()).not.toThrow();
    expect(changes).toEqual(["open", "closed"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(probe).toHaveBeenCalledTimes(3);
  });

  it("waits for a slow probe before the next one", async () => {
    let finish: (() => void) | undefined;
    const probe = vi.fn(() => new Promise<void>((_, reject) => (finish = () => reject(refused))));
    const circuit = new DatabaseCircuit({ probe, probeEveryMs: 200 });
    circuit.observe(refused);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(probe).toHaveBeenCalledTimes(1);
    finish!();
    await vi.advanceTimersByTimeAsync(200);
    expect(probe).toHaveBeenCalledTimes(2);
    circuit.stop();
  });

  it("stops probing when the pool closes", async () => {
    const { circuit, probe } = circuitWith([]);
    circuit.observe(refused);
    circuit.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(probe).not.toHaveBeenCalled();
    circuit.observe(refused);
    expect(probe).not.toHaveBeenCalled();
  });
});
