import { allCouriers, getTracking, type TrackingCourier } from "ts-tracking-number";
import { isCarrierName, type CarrierName } from "./names";
import { parseTrackingNumber } from "./sandbox/tracking-number";

/**
 * Which of our carriers a tracking number can belong to, from its shape and check digit: ts-tracking-number's tables
 * (the formats and checksums the tracking_number_data project collects from the carriers' own documents) for UPS,
 * FedEx, USPS and DHL Express, the UPU S10 standard for postal numbers (`RB123456785US`: the last two letters name
 * the issuing post, USPS or Canada Post), and the sandbox's own format. Several carriers can share a shape (a
 * 22-digit number is USPS's or a FedEx SmartPost one): all are answered, in the order people most often mean.
 * A carrier whose numbers the tables do not know (Canada Post's domestic PINs) is never guessed.
 */

/** The library's courier codes, and which of its formats are the carrier we speak (DHL E-Commerce is not Express). */
const COURIERS: { code: string; carrier: string; format?: (name: string) => boolean }[] = [
  { code: "ups", carrier: "ups" },
  { code: "fedex", carrier: "fedex" },
  { code: "usps", carrier: "usps" },
  { code: "dhl", carrier: "dhl_express", format: (name) => name.startsWith("DHL Express") },
];

/** S10's issuing country → the post we speak for it. */
const POSTS = new Map([
  ["US", "usps"],
  ["CA", "canadapost"],
]);

const courier = (code: string): TrackingCourier | undefined => allCouriers.find((c) => c.courier_code === code);

export function carriersForNumber(trackingNumber: string): CarrierName[] {
  const number = trackingNumber.replace(/\s+/g, "").toUpperCase();
  if (number.length === 0 || number.length > 64) return [];
  const found: string[] = [];
  if (parseTrackingNumber(number)) found.push("sandbox");
  for (const { code, carrier, format } of COURIERS) {
    const c = courier(code);
    const match = c ? getTracking(number, [c]) : undefined;
    if (match && (!format || format(match.name))) found.push(carrier);
  }
  const s10 = courier("s10");
  if (s10 && getTracking(number, [s10])) {
    const post = POSTS.get(number.slice(-2));
    if (post) found.push(post);
  }
  // Names not (yet) spoken here are dropped; each carrier once.
  return [...new Set(found)].filter(isCarrierName);
}
