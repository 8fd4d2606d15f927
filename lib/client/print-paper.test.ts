import { describe, expect, it } from "vitest";
import { printPaperKey, readPrintPaper, savePrintPaper } from "./print-paper";

function memory() {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
}

describe("the paper a person prints on", () => {
  it("is a label printer until a person chooses, then what they chose, per person and organization", () => {
    const storage = memory();
    const ada = printPaperKey("org_1", "usr_ada");
    expect(readPrintPaper(storage, ada)).toBe("label");
    savePrintPaper(storage, ada, "letter");
    expect(readPrintPaper(storage, ada)).toBe("letter");
    expect(readPrintPaper(storage, printPaperKey("org_1", "usr_bo"))).toBe("label");
    expect(readPrintPaper(storage, printPaperKey("org_2", "usr_ada"))).toBe("label");
    savePrintPaper(storage, ada, "a4");
    expect(readPrintPaper(storage, ada)).toBe("a4");
  });

  it("reads anything else saved as the label printer, and survives storage that refuses", () => {
    const storage = memory();
    storage.setItem("k", "tabloid");
    expect(readPrintPaper(storage, "k")).toBe("label");
    const refusing = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(readPrintPaper(refusing, "k")).toBe("label");
    expect(() => savePrintPaper(refusing, "k", "a4")).not.toThrow();
  });
});
