import { describe, expect, it } from "vitest";
import { inOneTrip } from "./tx";

const after = <T>(ms: number, value: T, fail = false) =>
  new Promise<T>((resolve, reject) => setTimeout(() => (fail ? reject(value) : resolve(value)), ms));

describe("inOneTrip", () => {
  it("answers every statement's answer, in the order given", async () => {
    expect(await inOneTrip([after(20, "a"), after(1, 2), Promise.resolve(null), [3]])).toEqual(["a", 2, null, [3]]);
    expect(await inOneTrip([])).toEqual([]);
  });

  it("throws the first failure in the order given, only once all have settled", async () => {
    let slowDone = false;
    const slow = after(30, "slow").then((v) => ((slowDone = true), v));
    const second = new Error("second");
    const third = new Error("third");
    const failed = inOneTrip([after(1, "ok"), after(10, second, true), after(2, third, true), slow]);
    await expect(failed).rejects.toBe(second);
    expect(slowDone).toBe(true);
  });
});
