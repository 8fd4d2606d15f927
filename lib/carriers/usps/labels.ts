import { createHash } from "node:crypto";
import type { components as Domestic } from "@/lib/carriers/usps/generated/domestic-labels";
import type { components as Intl } from "@/lib/carriers/usps/generated/international-labels";
import {
  CarrierError,
  type AdapterMessage,
  type ExtraCharge,
  type LabelType,
  type RateQuote,
  type ShipDocument,
  type ShipRequest,
} from "@/lib/carriers/types";
import { detectLabelType } from "@/lib/labels/check";
import { customsForm } from "@/lib/carriers/usps/customs";
import { badResponse } from "@/lib/carriers/usps/errors";
import { uspsExtras } from "@/lib/carriers/usps/options";
import { uspsService } from "@/lib/carriers/usps/services";
import {
  domesticAddress,
  email,
  isInternational,
  measures,
  names,
  num,
  oneUspsParcel,
  packagingWarnings,
  phone,
  processingCategory,
} from "@/lib/carriers/usps/wire";

/**
 * Labels (domestic-labels.yaml `POST /labels/v3/label`, international-labels.yaml
 * `POST /international-labels/v3/international-label`; docs/usps.md, "Labels"). Both are asked for as
 * `application/vnd.usps.labels+json`, which both files define: one JSON object with the label's metadata and the label
 * (and, at home, the receipt) as base64, instead of the default multipart answer. The label is 4×6, PDF or ZPL at 203
 * dpi; the tracking number is the shipment's identifier. The request carries an `X-Idempotency-Key` made from our
 * shipment key and the payload, so USPS answers a purchase sent twice with the same label.
 */

export const LABEL_ACCEPT = "application/vnd.usps.labels+json";

type DomesticRequest = Domestic["schemas"]["LabelRequest"];
type IntlRequest = Intl["schemas"]["InternationalLabelRequest"];
type DomesticExtra = Domestic["schemas"]["ExtraService"];

const IMAGE_TYPES = new Map<LabelType, "PDF" | "ZPL203DPI">([
  ["PDF", "PDF"],
  ["ZPL", "ZPL203DPI"],
]);

/**
 * The `X-Idempotency-Key` (a UUID): domestic-labels.yaml says USPS answers "the same idempotency key … resubmitted
 * with an identical request payload" with the existing label, without charging again. Derived from our shipment key
 * and the payload, so a purchase sent again as it was gets the label already sold, and a changed one (another
 * service, another day) is a new request rather than a conflict. The file asks for a random UUID "unique per
 * customer (CRID)"; a SHA-256 of a shipment key that is itself unique is as unique, and repeatable.
 */
export function idempotencyKey(shipmentKey: string, body: unknown): string {
  const h = createHash("sha256")
    .update(`usps-label:${shipmentKey}:${JSON.stringify(body)}`)
    .digest("hex");
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The client's reference as USPS's customer reference (30 characters, not printed). Our shipment key (36
 * characters) does not fit one; it travels as the idempotency key instead, and USPS has no lookup by either.
 */
function references(req: ShipRequest) {
  const ref = req.reference?.trim();
  return ref ? [{ referenceNumber: ref.slice(0, 30).trim() }] : [];
}

export function buildLabelRequest(
  req: ShipRequest,
  mailingDate: string,
): { path: string; body: DomesticRequest | IntlRequest; international: boolean; messages: AdapterMessage[] } {
  const parcel = oneUspsParcel(req.parcels);
  const service = uspsService(req.service);
  if (!service) {
    throw new CarrierError("not_supported", `USPS sells no service ${JSON.stringify(req.service.slice(0, 60))}.`, {
      field: "service",
    });
  }
  const imageType = IMAGE_TYPES.get(req.label_type);
  if (!imageType) {
    throw new CarrierError("not_supported", "USPS labels are PDF or ZPL.", { field: "label_type" });
  }
  const international = isInternational(req.recipient.country_code);
  if ((service.scope === "international") !== international) {
    throw new CarrierError(
      "not_supported",
      `${service.name} is ${service.scope === "international" ? "for mail abroad" : "for mail within the US"}.`,
      { field: "service" },
    );
  }
  const m = measures(parcel);
  const extras = uspsExtras(req.options, service.code, international);
  const messages = [...extras.messages, ...packagingWarnings(parcel)];
  const fromAddress = domesticAddress(req.shipper, "shipper");
  const shared = {
    ...m,
    weightUOM: "lb" as const,
    dimensionsUOM: "in" as const,
    processingCategory: processingCategory(m),
    destinationEntryFacilityType: "NONE" as const,
    // Single piece: Priority Mail Express (International) has its own indicator, PA (both label files).
    rateIndicator: service.code.startsWith("PRIORITY_MAIL_EXPRESS") ? ("PA" as const) : ("SP" as const),
    mailingDate,
    customerReference: references(req),
  };
  if (!international) {
    const body: DomesticRequest = {
      imageInfo: {
        imageType,
        labelType: "4X6LABEL",
        receiptOption: req.label_type === "PDF" ? "SEPARATE_PAGE" : "NONE",
      },
      toAddress: domesticAddress(req.recipient, "recipient"),
      fromAddress,
      packageDescription: {
        ...shared,
        mailClass: service.code as "PRIORITY_MAIL",
        hasNonstandardCharacteristics: false,
        ...(extras.extraServices.length ? { extraServices: extras.extraServices as DomesticExtra[] } : {}),
        ...(extras.packageValue !== null ? { packageOptions: { packageValue: extras.packageValue } } : {}),
        ...(extras.physicalSignatureRequired ? { physicalSignatureRequired: true } : {}),
      },
    };
    return { path: "/labels/v3/label", body, international, messages };
  }
  const r = req.recipient;
  const postal = r.postal_code.trim();
  const province = r.state_code.trim();
  const form = customsForm(req);
  const body: IntlRequest = {
    imageInfo: { imageType, labelType: "4X6LABEL" },
    toAddress: {
      ...names(r),
      streetAddress: r.address_line1.trim().slice(0, 50),
      ...(r.address_line2?.trim() ? { secondaryAddress: r.address_line2.trim().slice(0, 50) } : {}),
      city: r.city.trim().slice(0, 28),
      ...(province ? { province: province.slice(0, 40) } : {}),
      ...(postal ? { postalCode: postal.slice(0, 11) } : {}),
      // `country` is the country's name (international-labels.yaml: "the country name", e.g. Australia).
      country: countryName(r.country_code.toUpperCase()),
      countryISOAlpha2Code: r.country_code.toUpperCase(),
      ...phone(r),
      ...email(r),
    },
    fromAddress,
    packageDescription: {
      ...shared,
      mailClass: service.code as "PRIORITY_MAIL_INTERNATIONAL",
    },
    customsForm: form.form,
  };
  return {
    path: "/international-labels/v3/international-label",
    body,
    international,
    messages: [...messages, ...form.messages],
  };
}

/** An ISO country code's English name ("GB" → "United Kingdom"); the code itself when the runtime has none. */
function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "region", fallback: "code" }).of(code) ?? code;
  } catch {
    return code;
  }
}

function decode(base64: unknown): Uint8Array | null {
  if (typeof base64 !== "string" || !base64) return null;
  const bytes = Buffer.from(base64, "base64");
  return bytes.length ? new Uint8Array(bytes) : null;
}

export interface ParsedLabel {
  trackingNumber: string;
  label: Uint8Array;
  documents: ShipDocument[];
  charge: RateQuote | null;
  messages: AdapterMessage[];
}

/** The vendor JSON answer: metadata, `labelImage` and (domestic PDF) `receiptImage`, base64. */
export function parseLabelResponse(
  body: unknown,
  opts: { service: string; international: boolean; expected: LabelType },
): ParsedLabel {
  const b = body as Record<string, unknown> | null;
  const tn = opts.international ? b?.internationalTrackingNumber : b?.trackingNumber;
  if (typeof tn !== "string" || !tn.trim()) throw badResponse("a tracking number");
  const label = decode(b?.labelImage);
  if (!label) throw badResponse("a label image");
  if (detectLabelType(label) !== opts.expected) {
    throw new CarrierError("carrier_bad_response", `USPS sent a label that is not ${opts.expected}.`);
  }
  const documents: ShipDocument[] = [];
  const messages: AdapterMessage[] = [];
  const receipt = decode(b?.receiptImage);
  if (receipt) {
    const format = detectLabelType(receipt);
    if (format) documents.push({ type: "other", format, bytes: receipt, name: "USPS postage receipt" });
    else
      messages.push({
        code: "carrier_bad_response",
        level: "warning",
        message: "USPS sent a receipt that could not be read; it was not kept.",
      });
  }
  return { trackingNumber: tn.trim(), label, documents, charge: chargeOf(b, opts.service), messages };
}

/**
 * The label's price. `postage` is "Amount of Postage Required, does not include insurance or other extra service fees"
 * (domestic-labels.yaml, international-labels.yaml `LabelMetadata`): the package's own fees (a nonmachinable
 * surcharge) are within it, and the extra services (insurance, signature) are paid on top. Extra services name
 * themselves `name` on domestic labels and `serviceName` on international ones.
 */
function chargeOf(b: Record<string, unknown> | null, code: string): RateQuote | null {
  const postage = num(b?.postage);
  if (postage === null) return null;
  const itemized = (list: unknown, fallback: string): ExtraCharge[] =>
    (Array.isArray(list) ? list : []).flatMap((f: { price?: unknown; name?: unknown; serviceName?: unknown }) => {
      const price = num(f?.price);
      const name = [f?.name, f?.serviceName].find((n): n is string => typeof n === "string" && n !== "");
      return price ? [{ name: name ?? fallback, amount: price, currency: "USD" }] : [];
    });
  const fees = itemized(b?.fees, "Fee");
  const services = itemized(b?.extraServices, "Extra service");
  const total = Math.round((postage + services.reduce((s, e) => s + e.amount, 0)) * 100) / 100;
  const commitment = b?.commitment as { name?: unknown; expectedDeliveryDate?: unknown } | undefined;
  const date =
    typeof commitment?.expectedDeliveryDate === "string" ? commitment.expectedDeliveryDate.slice(0, 10) : null;
  return {
    service: code,
    service_name: uspsService(code)?.name ?? code,
    currency: "USD",
    base_charge: Math.round((postage - fees.reduce((s, e) => s + e.amount, 0)) * 100) / 100,
    discount: 0,
    duties_and_taxes: 0,
    total_charge: total,
    extra_charges: [...fees, ...services],
    transit_days: 0,
    estimated_delivery: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null,
  };
}
