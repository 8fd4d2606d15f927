import type { AdapterMessage, LabelType, Parcel, ShipRequest } from "@/lib/carriers/types";
import { carrierCode } from "@/lib/carriers/types";
import { carrierShipDate } from "@/lib/carriers/ship-date";
import type { SandboxService } from "@/lib/carriers/sandbox/services";
import { toKg } from "@/lib/carriers/sandbox/units";
import { addressLineFields, singleLine, type LabelContent } from "@/lib/labels/content";
import { drawnOtherThanWritten } from "@/lib/labels/fonts";
import { fitLabel } from "@/lib/labels/layout";

/** Characters of a reference the sandbox keeps and prints, as UPS, DHL Express and Canada Post do (docs/sandbox.md). */
const SANDBOX_REFERENCE_LENGTH = 35;

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

/**
 * The client's reference, or null: without one the purchase sends our shipment id as the reference (to find the label
 * by it), which is no reference of the client's to print.
 */
export function clientReference(req: Pick<ShipRequest, "reference" | "shipment_key">): string | null {
  return req.reference && req.reference !== req.shipment_key ? req.reference : null;
}

interface Printable {
  /** Whether the label prints `text` (NFC) other than as written. */
  fails: (text: string) => boolean | Promise<boolean>;
  what: string;
  instead: string;
}

// What a ZPL printer's resident font 0 (Latin-1) prints; PDF and PNG draw every script the Noto fonts have, save
// Devanagari, which they would have to shape (lib/labels/fonts.ts), and a character none has is a "?".
const NOTO: Printable = {
  fails: drawnOtherThanWritten,
  what: "the label's fonts lack them or cannot join them",
  instead: "they print as ? or unjoined",
};
const PRINTABLE: Record<LabelType, Printable> = {
  ZPL: {
    fails: (text) => /[^\u0000-\u00ff]/u.test(text),
    what: "a ZPL printer's built-in font prints Latin-1 only",
    instead: "buy a PDF or PNG label to print them",
  },
  PDF: NOTO,
  PNG: NOTO,
};

/**
 * What the label will not show as given, one warning per field: text cut even at the smallest size (the layout's bound
 * of every format), and characters the label cannot print as written (a ZPL label leaves what is not Latin-1 blank; a
 * PDF or PNG prints a character none of the Noto fonts has as "?", lib/labels/fonts.ts).
 */
export async function sandboxLabelWarnings(content: LabelContent, req: ShipRequest): Promise<AdapterMessage[]> {
  const labelType = req.label_type;
  const reference = clientReference(req);
  const messages: AdapterMessage[] = [];
  if (reference && reference.length > SANDBOX_REFERENCE_LENGTH) {
    messages.push({
      code: carrierCode("SBX_TEXT_CUT"),
      level: "warning",
      message: `The sandbox keeps and prints the first ${SANDBOX_REFERENCE_LENGTH} characters of reference; this one has ${reference.length}.`,
      details: { field: "reference" },
    });
  }
  messages.push(
    ...fitLabel(content).cut.map((field): AdapterMessage => ({
      code: carrierCode("SBX_TEXT_CUT"),
      level: "warning",
      message: `The label prints ${field} cut short: it is too long for its place even in the smallest letters.`,
      details: { field },
    })),
  );
  const printable = PRINTABLE[labelType];
  const fields = [
    ...addressLineFields(content.shipper).map((l) => ({ field: `shipper.${l.field}`, text: l.text })),
    ...addressLineFields(content.recipient).map((l) => ({ field: `recipient.${l.field}`, text: l.text })),
    ...(content.reference ? [{ field: "reference", text: content.reference }] : []),
  ];
  for (const { field, text } of fields) {
    // As the label prints it: a letter typed with a combining accent is the precomposed one (singleLine).
    if (!(await printable.fails(singleLine(text)))) continue;
    messages.push({
      code: carrierCode("SBX_TEXT_NOT_PRINTABLE"),
      level: "warning",
      message: `${field} has characters this label cannot print (${printable.what}); ${printable.instead}.`,
      details: { field },
    });
  }
  return messages;
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
    reference: clientReference(req)?.slice(0, SANDBOX_REFERENCE_LENGTH) ?? null,
    shipDate: carrierShipDate(req.ship_date, now),
    barcodeValue: trackingNumber,
    routingText: `${service.scope === "international" ? "INTL" : `ZONE ${zone}`}  ${place}`,
    footerText: SANDBOX_LABEL_FOOTER,
  };
}
