import { describe, expect, it } from "vitest";
import { ShortCache } from "./short-cache";

describe("ShortCache", () => {
  const handle = {};

  it("answers until the entry is ttl old, then forgets it", () => {
    let now = 1_000;
    const cache = new ShortCache<string>(5_000, 10, () => now);
    cache.set(handle, "k", "v");
    now += 4_999;
    expect(cache.get(handle, "k")).toBe("v");
    now += 1;
    expect(cache.get(handle, "k")).toBeUndefined();
  });

  it("belongs to the database handle it was read from", () => {
    const cache = new ShortCache<string>(5_000, 10);
    cache.set(handle, "k", "v");
    expect(cache.get({}, "k")).toBeUndefined();
    expect(cache.get(handle, "k")).toBe("v");
  });

  it("keeps at most max entries, dropping the oldest written first", () => {
    const cache = new ShortCache<number>(5_000, 2);
    cache.set(handle, "a", 1);
    cache.set(handle, "b", 2);
    cache.set(handle, "a", 3); // rewritten: now the newest
    cache.set(handle, "c", 4);
    expect([cache.get(handle, "a"), cache.get(handle, "b"), cache.get(handle, "c")]).toEqual([3, undefined, 4]);
  });

  it("forgets by key, by value and entirely", () => {
    const cache = new ShortCache<number>(5_000, 10);
    for (const [k, v] of [
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ] as const)
      cache.set(handle, k, v);
    cache.delete("a");
    cache.deleteWhere((v) => v === 2);
    expect([cache.get(handle, "a"), cache.get(handle, "b"), cache.get(handle, "c")]).toEqual([undefined, undefined, 3]);
    cache.clear();
    expect(cache.get(handle, "c")).toBeUndefined();
  });
});
