/**
 * The sandbox's service catalogue. Prices per parcel are `flat + multiplier × zone rate × billable kg`
 * (see pricing.ts); domestic services only run inside one country, SBX_INTL only across borders.
 */

type ServiceScope = "domestic" | "international";

export interface SandboxService {
  code: string;
  name: string;
  /** Business days from the ship date. */
  transitDays: number;
  scope: ServiceScope;
  /** Per-parcel handling charge, in cents of the rate's currency. */
  flatCents: number;
  /** Applied to the zone's per-kg rate. */
  multiplier: number;
}

export const SANDBOX_SERVICES = [
  { code: "SBX_GROUND", name: "Sandbox Ground", transitDays: 5, scope: "domestic", flatCents: 450, multiplier: 1 },
  { code: "SBX_2DAY", name: "Sandbox 2-Day", transitDays: 2, scope: "domestic", flatCents: 750, multiplier: 1.75 },
  {
    code: "SBX_OVERNIGHT",
    name: "Sandbox Overnight",
    transitDays: 1,
    scope: "domestic",
    flatCents: 1200,
    multiplier: 2.9,
  },
  {
    code: "SBX_INTL",
    name: "Sandbox International",
    transitDays: 6,
    scope: "international",
    flatCents: 1800,
    multiplier: 1,
  },
] as const satisfies readonly SandboxService[];

export const SANDBOX_SERVICE_CODES: readonly string[] = SANDBOX_SERVICES.map((s) => s.code);

export function findService(code: string): SandboxService | null {
  return SANDBOX_SERVICES.find((s) => s.code === code) ?? null;
}

export function servicesFor(international: boolean): SandboxService[] {
  const scope: ServiceScope = international ? "international" : "domestic";
  return SANDBOX_SERVICES.filter((s) => s.scope === scope);
}
