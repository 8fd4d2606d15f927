import type { Commodity, Customs, CustomsContentType, ShipRequest } from "@/lib/carriers/types";
import { type Fitter, upsDate } from "@/lib/carriers/ups/wire";

/**
 * A customs declaration as UPS's international fields (Shipping.yaml `ShipmentServiceOptions.InternationalForms`,
 * `Shipment.Description`, the duties `ShipmentCharge`):
 *
 * - a commercial invoice (FormType "01") with one Product per commodity: description (up to three lines of 35
 *   characters), quantity in pieces, unit value, HS code, origin country, SKU as part number; invoice number and
 *   date, reason for export from the content type, currency, incoterm as terms of shipment, and UPS's declaration
 *   statement when the shipper certifies;
 * - paperless: UPS sends the invoice data to customs electronically by itself when the account has Paperless Invoice
 *   enabled. `commercial_invoice: false` asks for a printed copy regardless (OverridePaperlessIndicator), to print
 *   and attach;
 * - documents without commodities: no invoice, DocumentsOnlyIndicator;
 * - duties and taxes: BillShipper (sender), BillReceiver (recipient, with their UPS account), BillThirdParty; a
 *   recipient without a UPS account gets no duties charge line at all, which UPS reads as "bill the receiver".
 */

const REASONS = new Map<CustomsContentType, string>([
  ["merchandise", "SALE"],
  ["gift", "GIFT"],
  ["sample", "SAMPLE"],
  ["return_merchandise", "RETURN"],
  ["documents", "DOCUMENTS"],
  ["other", "OTHER"],
]);

/** UPS's own wording for the invoice's declaration, used when the shipper certifies. */
const DECLARATION =
  "I hereby certify that the information on this invoice is true and correct and the contents and value of this shipment is as stated above.";

// Product descriptions are up to three lines of 35 characters each.
const DESCRIPTION_LINE = 35;
const DESCRIPTION_LINES = 3;

/** A description as up to three 35-character lines, broken at spaces where that fits, else cut hard. */
function descriptionLines(text: string, f: Fitter, field: string): string[] {
  const fitted = f.fit(text, DESCRIPTION_LINE * DESCRIPTION_LINES, field) ?? "";
  const lines: string[] = [];
  let rest = fitted;
  while (rest.length > DESCRIPTION_LINE) {
    const space = rest.lastIndexOf(" ", DESCRIPTION_LINE);
    const cut = space > 0 ? space : DESCRIPTION_LINE;
    lines.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) lines.push(rest);
  if (lines.length <= DESCRIPTION_LINES) return lines;
  return Array.from({ length: DESCRIPTION_LINES }, (_, i) =>
    fitted.slice(i * DESCRIPTION_LINE, (i + 1) * DESCRIPTION_LINE).trim(),
  ).filter(Boolean);
}

/** A unit value as UPS takes it: up to 6 decimals, never 0 (UPS: "Amount should be greater than zero"). */
function unitValue(amount: number): string {
  return String(Math.max(0.01, Number(amount.toFixed(6))));
}

function product(c: Commodity, i: number, f: Fitter) {
  const field = `customs.commodities[${i}]`;
  const partNumber = f.fit(c.sku, 35, `${field}.sku`);
  return {
    Description: descriptionLines(c.description, f, `${field}.description`),
    Unit: {
      Number: String(c.quantity),
      UnitOfMeasurement: { Code: "PCS", Description: "Pieces" },
      Value: unitValue(c.value_amount),
    },
    ...(c.hs_code ? { CommodityCode: c.hs_code } : {}),
    ...(partNumber ? { PartNumber: partNumber } : {}),
    OriginCountryCode: c.origin_country.toUpperCase(),
  };
}

/** Shipment.Description: what is inside, 50 characters at most. */
export function goodsDescription(customs: Customs, f: Fitter): string | undefined {
  const text =
    customs.content_description ??
    (customs.commodities.length > 0
      ? customs.commodities.map((c) => c.description).join(", ")
      : customs.content_type === "documents"
        ? "Documents"
        : null);
  const field = customs.content_description ? "customs.content_description" : "customs.commodities";
  return f.fit(text, 50, field);
}

/** The keys Shipment gets from a customs declaration. */
export function internationalFields(req: ShipRequest, customs: Customs, f: Fitter, now: Date) {
  const description = goodsDescription(customs, f);
  const documentsOnly = customs.content_type === "documents" && customs.commodities.length === 0;
  const invoiceNumber = f.fit(customs.invoice ?? req.reference, 35, customs.invoice ? "customs.invoice" : "reference");
  const invoiceDate = customs.invoice_date ? customs.invoice_date.replace(/-/g, "") : upsDate(now);
  const currency = customs.duty.currency ?? customs.commodities[0]?.value_currency ?? null;
  const forms = documentsOnly
    ? null
    : {
        FormType: ["01"],
        Product: customs.commodities.map((c, i) => product(c, i, f)),
        ...(invoiceNumber ? { InvoiceNumber: invoiceNumber } : {}),
        InvoiceDate: invoiceDate,
        ReasonForExport: REASONS.get(customs.content_type) ?? "SALE",
        ...(currency ? { CurrencyCode: currency } : {}),
        TermsOfShipment: customs.incoterm,
        ...(customs.certify ? { DeclarationStatement: DECLARATION } : {}),
        ...(customs.commercial_invoice ? {} : { OverridePaperlessIndicator: "Y" }),
      };
  return {
    ...(description ? { Description: description } : {}),
    ...(documentsOnly ? { DocumentsOnlyIndicator: "Y" } : {}),
    ...(forms ? { InternationalForms: forms } : {}),
  };
}

function optionText(options: Record<string, unknown>, key: string): string | undefined {
  const v = Object.hasOwn(options, key) ? options[key] : undefined;
  return typeof v === "string" && v.trim() ? v.trim().toUpperCase() : undefined;
}

/**
 * Who pays a charge line (`Type` "01" transportation, "02" duties and taxes), or null for "nobody named": UPS then
 * bills the receiver for duties. A third party's account address comes from `options`
 * (`ups_billing_country_code`, `ups_billing_postal_code`), else the shipper's country.
 */
export function chargeLine(
  type: "01" | "02",
  payer: { paid_by: string; account_number: string | null },
  ctx: { accountNumber: string; shipperCountry: string; recipientPostal: string; options: Record<string, unknown> },
) {
  const account = payer.account_number?.trim().toUpperCase() || null;
  switch (payer.paid_by) {
    case "recipient":
      if (!account) return null;
      return {
        Type: type,
        BillReceiver: { AccountNumber: account, Address: { PostalCode: ctx.recipientPostal } },
      };
    case "third_party": {
      const postal = optionText(ctx.options, "ups_billing_postal_code");
      return {
        Type: type,
        BillThirdParty: {
          AccountNumber: account,
          Address: {
            ...(postal ? { PostalCode: postal } : {}),
            CountryCode: optionText(ctx.options, "ups_billing_country_code") ?? ctx.shipperCountry,
          },
        },
      };
    }
    default:
      return { Type: type, BillShipper: { AccountNumber: ctx.accountNumber } };
  }
}
