import { cents } from "@/lib/carriers/currencies";
import type { components as Intl } from "@/lib/carriers/usps/generated/international-labels";
import { taxRegistrations } from "@/lib/carriers/tax-registrations";
import { optionNotHonoured } from "@/lib/carriers/options";
import type { AdapterMessage, CustomsContentType, ShipRequest } from "@/lib/carriers/types";
import { pounds } from "@/lib/carriers/usps/wire";

/**
 * The customs declaration as international-labels.yaml's `customsForm` (the CN22/CN23 USPS prints with the label):
 * what the parcel holds, the export filing (AES ITN or its exemption, which USPS requires on every form), the
 * invoice number, the importer's registration, and a line per commodity. USPS's limits (30 characters of
 * description, 25 of comments, 15 of invoice number, 30 lines) are cut to fit, and the message says so.
 */

type CustomsForm = Intl["schemas"]["InternationalCustomsForm"];

const CONTENT_TYPES = new Map<CustomsContentType, CustomsForm["customsContentType"]>([
  ["merchandise", "MERCHANDISE"],
  ["documents", "DOCUMENT"],
  ["gift", "GIFT"],
  ["sample", "COMMERCIAL_SAMPLE"],
  ["return_merchandise", "RETURNED_GOODS"],
  ["other", "OTHER"],
]);

/**
 * USPS's exemption text when no EEI is filed (goods under $2,500 per Schedule B line, 15 CFR 30.37(a)); the
 * declaration's own `eel_pfc` or `aes` wins.
 */
const DEFAULT_EXEMPTION = "NO EEI 30.37(a)";

const REFERENCE_TYPES = new Map([
  ["vat", "VAT_NUMBER"],
  ["ioss", "VAT_NUMBER"],
  ["eori", "IMPORTER_CODE"],
] as const);

export function customsForm(req: ShipRequest): { form: CustomsForm; messages: AdapterMessage[] } {
  const customs = req.customs!;
  const messages: AdapterMessage[] = [];
  const cut = (text: string, max: number, field: string) => {
    const t = text.trim();
    if (t.length > max) {
      messages.push({
        code: "not_supported",
        level: "warning",
        message: `USPS takes ${max} characters of ${field}; the rest was cut.`,
        details: { field },
      });
    }
    return t.slice(0, max).trim();
  };
  const lines = customs.commodities.slice(0, 30);
  if (customs.commodities.length > 30) {
    messages.push(
      optionNotHonoured("customs", "USPS takes 30 commodity lines; the ones after the 30th were left out."),
    );
  }
  const registration = taxRegistrations(req, "recipient").find((r) => REFERENCE_TYPES.has(r.type as never));
  if (customs.non_delivery) {
    messages.push(
      optionNotHonoured("customs", "USPS's international label takes no non-delivery instruction; it was not sent."),
    );
  }
  const form: CustomsForm = {
    customsContentType: CONTENT_TYPES.get(customs.content_type) ?? "OTHER",
    ...(customs.content_description
      ? { contentComments: cut(customs.content_description, 25, "customs.content_description") }
      : {}),
    AESITN: (customs.aes ?? customs.eel_pfc ?? DEFAULT_EXEMPTION).trim().slice(0, 35),
    ...(customs.invoice ? { invoiceNumber: cut(customs.invoice, 15, "customs.invoice") } : {}),
    ...(registration
      ? {
          importersReference: {
            referenceType: REFERENCE_TYPES.get(registration.type as never)!,
            reference: registration.number.slice(0, 28),
          },
        }
      : {}),
    // ShippingContents' fields; openapi-typescript reads the allOf's property-less `required` part as "no fields".
    contents: lines.map((c, i): Intl["schemas"]["ShippingContents"] => ({
      itemDescription: cut(c.description, 30, `customs.commodities[${i}].description`),
      itemQuantity: Math.max(1, Math.min(9999, Math.round(c.quantity))),
      itemTotalValue: Math.max(0.01, cents(c.value_amount * c.quantity)),
      weightUOM: "lb" as const,
      itemTotalWeight: pounds(c.weight * c.quantity, c.weight_unit),
      ...(c.hs_code && c.hs_code.length >= 6 ? { HSTariffNumber: c.hs_code.slice(0, 14) } : {}),
      countryofOrigin: c.origin_country.toUpperCase(),
    })) as CustomsForm["contents"],
  };
  return { form, messages };
}
