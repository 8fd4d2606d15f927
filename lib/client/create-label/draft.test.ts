import { describe, expect, it } from "vitest";
import {
  clearDraft,
  draftKey,
  mergeSaved,
  preferencesKey,
  readDraft,
  saveDraft,
  savePreferences,
  withPreferences,
} from "./draft";
import { defaultValues } from "./form-defaults";

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

const defaults = defaultValues({ shipFrom: { company_name: "Acme Warehouse", country_code: "US" } });

describe("create-label draft", () => {
  it("keeps one draft per person and organization, and gives it back over the page's defaults", () => {
    const storage = memoryStorage();
    const mine = draftKey("org_1", "user_1");
    expect(new Set([mine, draftKey("org_1", "user_2"), draftKey("org_2", "user_1")]).size).toBe(3);
    const typed = structuredClone(defaults);
    typed.recipient.company_name = "Zeta Co";
    typed.parcels[0]!.weight = "2.5";
    saveDraft(storage, mine, typed, 1_000);
    expect(readDraft(storage, mine, defaults, 2_000)).toEqual(typed);
    expect(readDraft(storage, draftKey("org_1", "user_2"), defaults, 2_000)).toBeNull();
    clearDraft(storage, mine);
    expect(readDraft(storage, mine, defaults, 2_000)).toBeNull();
  });

  it("forgets a draft a week old, and one written by another version or garbled", () => {
    const storage = memoryStorage();
    const key = draftKey("o", "u");
    saveDraft(storage, key, defaults, 0);
    expect(readDraft(storage, key, defaults, 8 * 24 * 3600 * 1000)).toBeNull();
    storage.setItem(key, JSON.stringify({ v: 0, savedAt: 1, values: {} }));
    expect(readDraft(storage, key, defaults, 2)).toBeNull();
    storage.setItem(key, "{not json");
    expect(readDraft(storage, key, defaults, 2)).toBeNull();
  });

  it("takes from storage only what the form has, of the same type", () => {
    const base = { a: "", b: false, rows: [{ x: "", y: "" }] };
    expect(mergeSaved(base, { a: "kept", b: "no", c: "extra", rows: [{ x: "1", z: 2 }, { y: 3 }] })).toEqual({
      a: "kept",
      b: false,
      rows: [
        { x: "1", y: "" },
        { x: "", y: "" },
      ],
    });
    expect(mergeSaved(base, null)).toEqual(base);
    expect(mergeSaved(base, { rows: [] })).toEqual(base);
  });

  it("starts a new label with the units and format the person bought with last", () => {
    const storage = memoryStorage();
    const key = preferencesKey("o", "u");
    expect(withPreferences(storage, key, defaults)).toEqual(defaults);
    const bought = structuredClone(defaults);
    bought.parcels[0] = { ...bought.parcels[0]!, weight: "3", weight_unit: "KG", dimension_unit: "CM" };
    bought.label_type = "ZPL";
    savePreferences(storage, key, bought);
    const next = withPreferences(storage, key, defaults);
    expect(next.parcels[0]).toEqual({ ...defaults.parcels[0], weight_unit: "KG", dimension_unit: "CM" });
    expect(next.label_type).toBe("ZPL");
    expect(next.recipient).toEqual(defaults.recipient);

    // The organization's default box (in inches, with its weight in pounds) keeps its own units.
    const boxed = structuredClone(defaults);
    boxed.parcels[0] = { weight: "2", weight_unit: "LB", length: "12", width: "10", height: "8", dimension_unit: "IN" };
    expect(withPreferences(storage, key, boxed).parcels[0]).toEqual(boxed.parcels[0]);
  });
});
