import { describe, expect, it } from "vitest";
import { safeNext } from "./next-path";

const FALLBACK = "/shipments";

describe("where sign-in sends a person next", () => {
  it("keeps a path on this site, with its query and fragment", () => {
    expect(safeNext("/shipments/shp_1")).toBe("/shipments/shp_1");
    expect(safeNext("/invite/abc?x=1#top")).toBe("/invite/abc?x=1#top");
    expect(safeNext("/settings/team")).toBe("/settings/team");
  });

  it("refuses anything a browser would read as another site", () => {
    for (const asked of [
      "//evil.test/x",
      "/\\evil.test/x",
      "\\\\evil.test",
      "/\t/evil.test/x", // the tab is dropped by the URL parser: //evil.test/x
      "/\n/evil.test/x",
      "/\r/evil.test/x",
      "/\r\n/evil.test/x",
      "/./evil.test/../\\evil.test",
      "/.//evil.test/x", // resolves to the path //evil.test/x
      "https://evil.test/x",
      "http:evil.test",
      "javascript:alert(1)",
      "evil.test",
      "",
    ]) {
      const next = safeNext(asked);
      expect(next, JSON.stringify(asked)).toBe(FALLBACK);
    }
  });

  it("refuses control characters anywhere, which would break the Location header", () => {
    for (const asked of ["/shipments\n", "/ship\u0000ments", "/a\u007fb", "/a\tb"]) {
      expect(safeNext(asked), JSON.stringify(asked)).toBe(FALLBACK);
    }
  });

  it("gives back the resolved, percent-encoded path, never the raw text", () => {
    expect(safeNext("/shipments/../trackers")).toBe("/trackers");
    expect(safeNext("/search?q=a b")).toBe("/search?q=a%20b");
    expect(safeNext("/a\u2028b")).toBe("/a%E2%80%A8b");
  });

  it("falls back when nothing usable was asked", () => {
    expect(safeNext(null)).toBe(FALLBACK);
    expect(safeNext(undefined)).toBe(FALLBACK);
    expect(safeNext("/".padEnd(3000, "a"))).toBe(FALLBACK);
  });
});
