import { describe, expect, it } from "vitest";
import { attachmentName, printsFromFrame } from "@/lib/client/print-support";

const UA = {
  chromeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
  edge: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 Edg/142.0.0.0",
  firefox: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:145.0) Gecko/20100101 Firefox/145.0",
  safari:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15",
  chromeIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/142.0 Mobile/15E148 Safari/604.1",
};

describe("printsFromFrame", () => {
  it("prints from an off-screen frame in Chromium browsers, and opens a tab in Safari, Firefox and on iOS", () => {
    expect(printsFromFrame(UA.chromeWindows)).toBe(true);
    expect(printsFromFrame(UA.edge)).toBe(true);
    expect(printsFromFrame(UA.firefox)).toBe(false);
    expect(printsFromFrame(UA.safari)).toBe(false);
    expect(printsFromFrame(UA.chromeIos)).toBe(false);
  });
});

describe("attachmentName", () => {
  it("takes the server's file name, else the fallback", () => {
    expect(attachmentName('attachment; filename="SBX1-letter.pdf"', "label.pdf")).toBe("SBX1-letter.pdf");
    expect(attachmentName(null, "label.pdf")).toBe("label.pdf");
  });
});
