import { describe, expect, it } from "vitest";
import { randomHex128 } from "./random";

describe("randomHex128", () => {
  it("gives 32 lowercase hex characters, never the same twice across pool refills", () => {
    const seen = new Set(Array.from({ length: 2000 }, () => randomHex128()));
    expect(seen.size).toBe(2000);
    for (const hex of seen) expect(hex).toMatch(/^[0-9a-f]{32}$/);
  });
});
