import { describe, expect, it } from "vitest";
import { parseTheme, themeClass } from "./theme";

describe("theme", () => {
  it("reads the cookie's choice, anything else as following the system", () => {
    expect(parseTheme("dark")).toBe("dark");
    expect(parseTheme("light")).toBe("light");
    expect(parseTheme("purple")).toBe("system");
    expect(parseTheme(undefined)).toBe("system");
  });

  it("puts a class on <html> only for a chosen theme", () => {
    expect(themeClass("dark")).toBe("dark");
    expect(themeClass("light")).toBe("light");
    expect(themeClass("system")).toBeUndefined();
  });
});
