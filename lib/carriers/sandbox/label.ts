import type { Parcel, ShipRequest } from "@/lib/carriers/types";
import { carrierShipDate } from "@/lib/carriers/ship-date";
import type { SandboxService } from "@/lib/carriers/sandbox/services";
import { toKg } from "@/lib/carriers/sandbox/units";
import type { LabelContent } from "@/lib/labels/content";

const SANDBOX_LABEL_FOOTER = "SANDBOX TEST LABEL - NOT VALID FOR SHIPPING";

function formatAmount(n: number): string {
  return String(Number(n.toFixed(2)));
}

/** "2.5 KG" for one parcel, "3 parcels, 7.25 LB" for several; mixed units are summed in KG. */
function weightText(parcels: Parcel[]): string {
  const units = new Set(parcels.map((p) => p.weight_unit));
  const [only] = units;
  const total =
    units.size === 1 && only
      ? parcels.reduce((sum, p) => sum + p.weight, 0)
      : parcels.reduce((sum, p) => sum + toKg(p.weight, p.weight_unit), 0);
  const unit = units.size === 1 && only ? only : "KG";
  const weight = `${formatAmount(total)} ${unit}`;
  return parcels.length === 1 ? weight : `${parcels.length} parcels, ${weight}`;
}

export function sandboxLabelContent(
  req: ShipRequest,
  service: SandboxService,
  trackingNumber: string,
  zone: number,
  now: Date,
): LabelContent {
  const r = req.recipient;
  const place = [r.city.toUpperCase(), r.state_code.toUpperCase(), r.country_code.toUpperCase()]
    .filter(Boolean)
    .join(" ");
  return {
    carrierName: "Sandbox",
    serviceName: service.name,
    trackingNumber,
    shipper: req.shipper,
    recipient: req.recipient,
    weightText: weightText(req.parcels),
    reference: req.reference,
    shipDate: carrierShipDate(req.ship_date, now),
    barcodeValue: trackingNumber,
    routingText: `${service.scope === "international" ? "INTL" : `ZONE ${zone}`}  ${place}`,
    footerText: SANDBOX_LABEL_FOOTER,
  };
}
