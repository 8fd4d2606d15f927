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

  it("probes every probeEveryMs while open and closes on the first answered probe", async () => {
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
    expect(changes).toEqual(["open"]);
    await vi.advanceTimersByTimeAsync(200);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(circuit.isOpen).toBe(false);
    expect(() => circuit.check()).not.toThrow();
    expect(changes).toEqual(["open", "closed"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(probe).toHaveBeenCalledTimes(3);
  });

  it("does not wait for a probe left hanging: the next ones start on time, up to the cap in flight", async () => {
    // The first two probes hang (sent while the host was silent); the third is answered: the database is back.
    const pending: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
    const probe = vi.fn(() => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })));
    const changes: string[] = [];
    const circuit = new DatabaseCircuit({
      probe,
      probeEveryMs: 200,
      maxProbesInFlight: 2,
      onChange: (s) => changes.push(s),
    });
    circuit.observe(refused);
    await vi.advanceTimersByTimeAsync(400);
    expect(probe).toHaveBeenCalledTimes(2);
    // Two in flight: the cap holds until one of them settles.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(probe).toHaveBeenCalledTimes(2);
    pending[0]!.reject(refused);
    await vi.advanceTimersByTimeAsync(200);
    expect(probe).toHaveBeenCalledTimes(3);
    pending[2]!.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(circuit.isOpen).toBe(false);
    expect(changes).toEqual(["open", "closed"]);
    // The hanging probe failing late does not open it again, nor does it answering late close it twice.
    pending[1]!.reject(refused);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(circuit.isOpen).toBe(false);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(changes).toEqual(["open", "closed"]);
  });

  it("caps probes in flight at three by default", async () => {
    const probe = vi.fn(() => new Promise<void>(() => {}));
    const circuit = new DatabaseCircuit({ probe, probeEveryMs: 200 });
    circuit.observe(refused);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(probe).toHaveBeenCalledTimes(3);
    circuit.stop();
  });

  it("a late answer after the circuit closed and opened again does not close the new outage", async () => {
    const pending: Array<{ resolve: () => void }> = [];
    const probe = vi.fn(() => new Promise<void>((resolve) => pending.push({ resolve })));
    const circuit = new DatabaseCircuit({ probe, probeEveryMs: 200 });
    circuit.observe(refused);
    await vi.advanceTimersByTimeAsync(400);
    pending[1]!.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(circuit.isOpen).toBe(false);
    circuit.observe(refused);
    expect(circuit.isOpen).toBe(true);
    pending[0]!.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(circuit.isOpen).toBe(true);
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
