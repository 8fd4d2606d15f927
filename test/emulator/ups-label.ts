import { PNG } from "pngjs";
import type { Address } from "@/lib/carriers/types";
import type { LabelContent } from "@/lib/labels/content";
import { renderPngLabel } from "@/lib/labels/png";
import { renderZplLabel } from "@/lib/labels/zpl";
import { encodeGif } from "./gif";

/**
 * Label images as UPS sends them: ZPL as printer text, and images as a black-and-white GIF of the 4×6 label turned
 * a quarter counter-clockwise (landscape), with a blank strip on the right (UPS's GIFs are 1400×800 for a 1200×800
 * label). The label itself is drawn by lib/labels, from the shipment the emulator was sent.
 */

const BLANK_STRIP = 200;

export interface UpsLabelFacts {
  trackingNumber: string;
  serviceName: string;
  shipper: Partial<Address>;
  recipient: Partial<Address>;
  weightText: string;
  reference: string | null;
  shipDate: string;
}

function address(a: Partial<Address>): Address {
  return {
    person_name: a.person_name ?? null,
    company_name: a.company_name ?? null,
    address_line1: a.address_line1 ?? "",
    address_line2: a.address_line2 ?? null,
    city: a.city ?? "",
    postal_code: a.postal_code ?? "",
    state_code: a.state_code ?? "",
    country_code: a.country_code ?? "",
    suburb: null,
    residential: false,
    email: null,
    phone_number: null,
    federal_tax_id: null,
    state_tax_id: null,
  };
}

function content(facts: UpsLabelFacts): LabelContent {
  return {
    carrierName: "UPS",
    serviceName: facts.serviceName,
    trackingNumber: facts.trackingNumber,
    shipper: address(facts.shipper),
    recipient: address(facts.recipient),
    weightText: facts.weightText,
    reference: facts.reference,
    shipDate: facts.shipDate,
    barcodeValue: facts.trackingNumber,
    routingText: `${facts.recipient.country_code ?? ""} ${facts.recipient.postal_code ?? ""}`.trim(),
    footerText: "CARRIER EMULATOR - NOT A REAL UPS LABEL",
  };
}

export function zplLabel(facts: UpsLabelFacts): Uint8Array {
  return new TextEncoder().encode(renderZplLabel(content(facts)));
}

/** The label as UPS's landscape GIF: 1-bit, turned counter-clockwise, blank strip on the right. */
export function gifLabel(facts: UpsLabelFacts): Uint8Array {
  const png = PNG.sync.read(Buffer.from(renderPngLabel(content(facts))));
  const { width, height } = png; // portrait
  const outWidth = height + BLANK_STRIP;
  const outHeight = width;
  const indexes = new Uint8Array(outWidth * outHeight).fill(1); // 1 = white
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // RGBA from pngjs; the label is gray, so red is enough.
      if (png.data[(y * width + x) * 4]! < 128) {
        // A quarter turn counter-clockwise: (x, y) → (y, width − 1 − x).
        indexes[(width - 1 - x) * outWidth + y] = 0;
      }
    }
  }
  return encodeGif(outWidth, outHeight, indexes, [
    [0, 0, 0],
    [255, 255, 255],
  ]);
}
