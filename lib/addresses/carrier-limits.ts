import type { CarrierName } from "@/lib/carriers/names";

/**
 * What each carrier prints and where it delivers, as its adapter sends an address (lib/carriers/<name>/wire.ts and
 * ship.ts cut lines to these lengths, as each carrier's page in docs/ says). A longer line is cut on the label, so the
 * checks warn before.
 */
interface CarrierLimits {
  /** Characters per street line, city and name or company line. */
  street: number;
  city: number;
  name: number;
  /** Characters of the client's reference the carrier keeps (and prints, where its label shows one). */
  reference: number;
  /** Prints Latin letters only (a character outside ISO-8859-1 comes out as "?"). */
  latinOnly: boolean;
  /** Whether the carrier delivers to a PO Box: every service, none, or only these service codes. */
  poBox: "all" | "none" | readonly string[];
}

export const CARRIER_LIMITS: Record<CarrierName, CarrierLimits> = {
  // Our own label (lib/labels/layout.ts) embeds a font that prints what it is given and shrinks a long line to fit;
  // these are the lengths every format prints whole even in the widest letters (docs/sandbox.md, "The label").
  sandbox: { street: 60, city: 45, name: 60, reference: 35, latinOnly: false, poBox: "all" },
  // UPS delivers to PO Boxes only through the USPS hand-off services (SurePost, Mail Innovations), not sold here.
  ups: { street: 35, city: 30, name: 35, reference: 35, latinOnly: true, poBox: "none" },
  // FedEx: Ground Economy (SMART_POST) hands off to USPS and so reaches PO Boxes; no other service does.
  fedex: { street: 35, city: 35, name: 35, reference: 30, latinOnly: true, poBox: ["SMART_POST"] },
  usps: { street: 50, city: 28, name: 50, reference: 30, latinOnly: true, poBox: "all" },
  // DHL Express is a courier: a signature at a door, never a PO Box.
  dhl_express: { street: 45, city: 45, name: 45, reference: 35, latinOnly: true, poBox: "none" },
  canadapost: { street: 44, city: 40, name: 44, reference: 35, latinOnly: true, poBox: "all" },
};

export function deliversToPoBox(carrier: CarrierName, service: string | null): boolean {
  const rule = CARRIER_LIMITS[carrier].poBox;
  if (rule === "all") return true;
  if (rule === "none") return false;
  return service !== null && rule.includes(service);
}
