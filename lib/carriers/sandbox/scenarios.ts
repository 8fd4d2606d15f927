import { invalidOption } from "@/lib/carriers/sandbox/errors";

/**
 * What happens to a sandbox parcel is chosen at purchase with `options.sandbox_scenario` (a digit 0–9, as a
 * number or string, or one of the names below) and stored in the tracking number's scenario digit.
 * Without the option a label follows the normal journey to `delivered`.
 *
 * | digit | name               | journey (events.ts) |
 * |-------|--------------------|---------------------|
 * | 0     | delivered          | normal journey, ends `delivered` (the default) |
 * | 1     | pending            | stays at "Label created, awaiting item" |
 * | 2     | in_transit         | stops in transit at the sort hub / export gateway |
 * | 3     | out_for_delivery   | stops at "Out for delivery" |
 * | 4     | delivered          | same as 0 (so 1–4 read like EasyPost's test numbers) |
 * | 5     | return_to_sender   | two failed delivery attempts, then returned to the shipper |
 * | 6     | ready_for_pickup   | one failed attempt (`delivery_failed`), then held at the post office (`ready_for_pickup`) |
 * | 7     | on_hold            | held by customs on arrival (international) / held for address information (domestic) |
 * | 8     | delivery_delayed   | weather delay at the hub for one simulated day, then delivered |
 * | 9     | not_found          | the label is issued, but tracking and void answer `tracking_not_found` |
 */

const SCENARIO_NAMES = [
  "delivered",
  "pending",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "return_to_sender",
  "ready_for_pickup",
  "on_hold",
  "delivery_delayed",
  "not_found",
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

const DEFAULT_SCENARIO = 0;
export const NOT_FOUND_SCENARIO = 9;

// Names accepted besides SCENARIO_NAMES, for people who think of the scenario by its first bad event. A Map, so a
// client's "constructor" or "__proto__" finds nothing instead of something on Object.prototype.
const ALIASES: ReadonlyMap<string, number> = new Map([
  ["normal", 0],
  ["delivery_failed", 6],
  ["customs_hold", 7],
  ["weather_delay", 8],
  ["unknown", 9],
]);

export function scenarioName(digit: number): ScenarioName {
  return SCENARIO_NAMES[digit] ?? "delivered";
}

/** The scenario digit for `options.sandbox_scenario`; throws SBX_INVALID_OPTION for anything unrecognised. */
export function scenarioFromOption(value: unknown): number {
  if (value === undefined || value === null || value === "") return DEFAULT_SCENARIO;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 9) return value;
  if (typeof value === "string") {
    const v = value.trim().toLowerCase();
    if (/^[0-9]$/.test(v)) return Number(v);
    const byName = (SCENARIO_NAMES as readonly string[]).indexOf(v);
    if (byName !== -1) return byName;
    const alias = ALIASES.get(v);
    if (alias !== undefined) return alias;
  }
  throw invalidOption(
    "sandbox_scenario",
    `expected a digit 0-9 or one of ${[...new Set([...SCENARIO_NAMES, ...ALIASES.keys()])].join(", ")}.`,
  );
}
