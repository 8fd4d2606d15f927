import type { CreateLabelValues, ParcelValues } from "./form-schema";

/**
 * The create-label draft kept in this browser (localStorage), per person and organization, so a reload, a closed tab
 * or an ended session loses nothing typed; cleared when the label is bought. The units and label format a person
 * bought with last are kept apart ("preferences") and start every new label.
 */
type DraftStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const VERSION = 1;
/** A draft older than this is a different day's work, not something to continue. */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_ROWS = 100;

export const draftKey = (orgId: string, userId: string) => `shipwell:create-label:draft:${orgId}:${userId}`;
export const preferencesKey = (orgId: string, userId: string) => `shipwell:create-label:prefs:${orgId}:${userId}`;

/**
 * `saved` read into the shape of `base`: only the keys `base` has, each of the same type (a row of a list takes the
 * shape of `base`'s first row), anything else left at `base`'s value. What storage holds is never trusted whole:
 * another version of the page, or a person, may have written it.
 */
export function mergeSaved<T>(base: T, saved: unknown): T {
  if (Array.isArray(base)) {
    if (!Array.isArray(saved) || saved.length === 0 || base.length === 0) return base;
    return saved.slice(0, MAX_ROWS).map((row) => mergeSaved(base[0], row)) as T;
  }
  if (base !== null && typeof base === "object") {
    if (saved === null || typeof saved !== "object" || Array.isArray(saved)) return base;
    const record = saved as Record<string, unknown>;
    return Object.fromEntries(Object.entries(base).map(([k, v]) => [k, mergeSaved(v, record[k])])) as T;
  }
  return typeof saved === typeof base ? (saved as T) : base;
}

function read(storage: DraftStorage, key: string): { savedAt: number; values: unknown } | null {
  try {
    const parsed = JSON.parse(storage.getItem(key) ?? "null") as { v?: unknown; savedAt?: unknown; values?: unknown };
    if (parsed?.v !== VERSION || typeof parsed.savedAt !== "number") return null;
    return { savedAt: parsed.savedAt, values: parsed.values };
  } catch {
    return null;
  }
}

function write(storage: DraftStorage, key: string, values: unknown, now: number): void {
  try {
    storage.setItem(key, JSON.stringify({ v: VERSION, savedAt: now, values }));
  } catch {
    // Storage full or refused (a private window): the form still works, only without a draft.
  }
}

/** The saved draft on top of the page's defaults, or null when there is none (or it is too old). */
export function readDraft(
  storage: DraftStorage,
  key: string,
  defaults: CreateLabelValues,
  now = Date.now(),
): CreateLabelValues | null {
  const saved = read(storage, key);
  if (!saved || now - saved.savedAt > MAX_AGE_MS) return null;
  return mergeSaved(defaults, saved.values);
}

export function saveDraft(storage: DraftStorage, key: string, values: CreateLabelValues, now = Date.now()): void {
  write(storage, key, values, now);
}

export function clearDraft(storage: DraftStorage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // Nothing to clear where storage is refused.
  }
}

/** What a person's next label starts with: the units and label format they bought with last. */
type Preferences = Pick<ParcelValues, "weight_unit" | "dimension_unit"> & Pick<CreateLabelValues, "label_type">;

export function savePreferences(storage: DraftStorage, key: string, values: CreateLabelValues): void {
  const { weight_unit, dimension_unit } = values.parcels[0] ?? {};
  write(storage, key, { weight_unit, dimension_unit, label_type: values.label_type }, 0);
}

/** The page's defaults with the person's preferences applied (the first parcel's units, the label format). */
export function withPreferences(storage: DraftStorage, key: string, defaults: CreateLabelValues): CreateLabelValues {
  const saved = read(storage, key);
  const [parcel, ...rest] = defaults.parcels;
  if (!saved || !parcel) return defaults;
  const base: Preferences = {
    weight_unit: parcel.weight_unit,
    dimension_unit: parcel.dimension_unit,
    label_type: defaults.label_type,
  };
  const prefs = mergeSaved(base, saved.values);
  return {
    ...defaults,
    label_type: prefs.label_type,
    // A unit the page filled with its number (the organization's default preset) stays with that number.
    parcels: [
      {
        ...parcel,
        weight_unit: parcel.weight === "" ? prefs.weight_unit : parcel.weight_unit,
        dimension_unit: parcel.length === "" ? prefs.dimension_unit : parcel.dimension_unit,
      },
      ...rest,
    ],
  };
}
