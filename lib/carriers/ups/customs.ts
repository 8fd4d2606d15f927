import type { components as Shipping } from "@/lib/carriers/ups/generated/shipping";
import { taxRegistrations } from "@/lib/carriers/tax-registrations";
import {
  CarrierError,
  type Customs,
  type CustomsContentType,
  type ShipRequest,
  type TaxParty,
  type TaxRegistration,
} from "@/lib/carriers/types";
import type { Fitter } from "@/lib/carriers/ups/wire";

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

type Commodity = Customs["commodities"][number];

const REASONS = new Map<CustomsContentType, string>([
  ["merchandise", "SALE"],
  ["gift", "GIFT"],
  ["sample", "SAMPLE"],
  ["return_merchandise", "RETURN"],
  ["documents", "DOCUMENTS"],
  ["other", "OTHER"],
]);

/**
 * The terms of shipment UPS's invoice takes: Shipping.yaml, components.schemas.ShipmentServiceOptions_InternationalForms
 * .properties.TermsOfShipment.description ("Valid values: CFR, CIF, CIP, CPT, DAF, DDP, DAP, DEQ, DES, EXW, FAS, FCA,
 * FOB"). It has no DDU, DPU or DAT. UPS documents no equivalent for them, so they are refused before buying rather
 * than renamed: an incoterm decides who pays duties, and the shipper must choose it (DAP replaced DDU in Incoterms
 * 2010, DPU replaced DAT in 2020; the message names DAP as the closest).
 */
export const UPS_TERMS_OF_SHIPMENT: ReadonlySet<string> = new Set([
  "CFR",
  "CIF",
  "CIP",
  "CPT",
  "DAF",
  "DDP",
  "DAP",
  "DEQ",
  "DES",
  "EXW",
  "FAS",
  "FCA",
  "FOB",
]);

// What a shipper who wrote one of the missing terms most likely means (the buyer pays duties at destination).
const CLOSEST = new Map([
  ["DDU", "DAP"],
  ["DAT", "DAP"],
  ["DPU", "DAP"],
]);

function termsOfShipment(incoterm: string): string {
  if (UPS_TERMS_OF_SHIPMENT.has(incoterm)) return incoterm;
  const instead = CLOSEST.get(incoterm);
  throw new CarrierError(
    "not_supported",
    `UPS's commercial invoice does not take customs.incoterm ${incoterm}${instead ? `; the closest it takes is ${instead}` : ""}. UPS takes ${[...UPS_TERMS_OF_SHIPMENT].join(", ")}.`,
    { field: "customs.incoterm", accepted: [...UPS_TERMS_OF_SHIPMENT] },
  );
}

/** UPS's own wording for the invoice's declaration, used when the shipper certifies. */
const DECLARATION =
  "I hereby certify that the information on this invoice is true and correct and the contents and value of this shipment is as stated above.";

// Product descriptions are up to three lines of 35 characters each.
const DESCRIPTION_LINE = 35;
const DESCRIPTION_LINES = 3;

/**
 * A description as UPS's up to three lines of 35 characters, broken between words (a word longer than a line is
 * broken inside it). What does not fit is cut, with a warning.
 */
function descriptionLines(text: string, f: Fitter, field: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.replace(/\s+/g, " ").trim().split(" ")) {
    let rest = word;
    while (rest) {
      if (!line) {
        line = rest.slice(0, DESCRIPTION_LINE);
        rest = rest.slice(DESCRIPTION_LINE);
        if (rest) {
          lines.push(line);
          line = "";
        }
      } else if (line.length + 1 + rest.length <= DESCRIPTION_LINE) {
        line = `${line} ${rest}`;
        rest = "";
      } else {
        lines.push(line);
        line = "";
      }
    }
  }
  if (line) lines.push(line);
  if (lines.length <= DESCRIPTION_LINES) return lines;
  const kept = lines.slice(0, DESCRIPTION_LINES);
  f.cut(
    field,
    `three lines of ${DESCRIPTION_LINE} characters, all UPS accepts`,
    kept.join(" "),
    DESCRIPTION_LINE * DESCRIPTION_LINES,
  );
  return kept;
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
      // Description is for the OTH code only, and 3 characters at most (Shipping.yaml, Unit_UnitOfMeasurement).
      UnitOfMeasurement: { Code: "PCS" },
      Value: unitValue(c.value_amount),
    },
    ...(c.hs_code ? { CommodityCode: c.hs_code } : {}),
    ...(partNumber ? { PartNumber: partNumber } : {}),
    OriginCountryCode: c.origin_country.toUpperCase(),
  };
}

const GOODS_DESCRIPTION = 50;

/**
 * Shipment.Description: what is inside, 50 characters at most. The client's own words are cut with a warning; a
 * summary we make from the commodities names as many of them as fit (the invoice lists them all).
 */
function goodsDescription(customs: Customs, f: Fitter): string | undefined {
  if (customs.content_description)
    return f.fit(customs.content_description, GOODS_DESCRIPTION, "customs.content_description");
  if (customs.commodities.length === 0) return customs.content_type === "documents" ? "Documents" : undefined;
  const names = customs.commodities.map((c) => c.description.replace(/\s+/g, " ").trim());
  let summary = "";
  for (const name of names) {
    const next = summary ? `${summary}, ${name}` : name;
    if (next.length > GOODS_DESCRIPTION) break;
    summary = next;
  }
  if (summary) return summary;
  const first = names[0]!.slice(0, GOODS_DESCRIPTION);
  const space = first.lastIndexOf(" ");
  return (names[0]!.length > GOODS_DESCRIPTION && space > 0 ? first.slice(0, space) : first).trim();
}

/** What the goods are worth, for UPS's InvoiceLineTotal: the commodities' total, else the declared value. */
export function customsValue(customs: Customs): number {
  const total = customs.commodities.reduce((s, c) => s + c.quantity * c.value_amount, 0);
  return total > 0 ? total : (customs.duty.declared_value ?? 0);
}

/** The keys Shipment gets from a customs declaration. */
export function internationalFields(req: ShipRequest, customs: Customs, f: Fitter, shipDate: string) {
  const description = goodsDescription(customs, f);
  const documentsOnly = customs.content_type === "documents" && customs.commodities.length === 0;
  // Without an invoice number, the client's reference (an order number, usually) when it fits; it is cut (with its
  // warning) only where it is a reference.
  const reference = req.reference?.trim();
  const invoiceNumber = customs.invoice
    ? f.fit(customs.invoice, 35, "customs.invoice")
    : reference && reference.length <= 35
      ? reference
      : undefined;
  const invoiceDate = (customs.invoice_date ?? shipDate).replace(/-/g, "");
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
        TermsOfShipment: termsOfShipment(customs.incoterm),
        ...(customs.certify ? { DeclarationStatement: DECLARATION } : {}),
        ...(customs.commercial_invoice ? {} : { OverridePaperlessIndicator: "Y" }),
      };
  if (customs.non_delivery) {
    // Shipping.yaml has no field for it (its only word on undeliverable parcels is the return address, ShipFrom's).
    f.messages.push({
      code: "not_supported",
      level: "warning",
      message: `UPS's ship request takes no instruction for an undeliverable parcel; customs.non_delivery "${customs.non_delivery}" was not sent, and UPS handles it by its own terms.`,
      details: { field: "customs.non_delivery" },
    });
  }
  return {
    ...(description ? { Description: description } : {}),
    ...(documentsOnly ? { DocumentsOnlyIndicator: "Y" } : {}),
    ...(forms ? { ShipmentServiceOptions: { InternationalForms: forms } } : {}),
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
      if (!account) return null;
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

type AgentTaxId = Shipping["schemas"]["AgentTaxIdentificationNumber_TaxIdentificationNumber"];

/**
 * Who a registration belongs to in UPS's GlobalTaxInformation (Shipping.yaml
 * `GlobalTaxInformation_AgentTaxIdentificationNumber.AgentRole`: "SHIP_FROM=20, CONSIGNEE=30"; and
 * `IDNumberCustomerRole`: "18=DeliverTo/Consignee/Reciever Address, 37= Shipper Address").
 */
const AGENT_ROLES: Record<TaxParty, { agentRole: string; customerRole: string }> = {
  shipper: { agentRole: "20", customerRole: "37" },
  recipient: { agentRole: "30", customerRole: "18" },
};

/**
 * A registration's `IDNumberTypeCode` (Shipping.yaml `AgentTaxIdentificationNumber_TaxIdentificationNumber`): 0002
 * is "EORI Number – When IdentificationNumberPurposeCode = 02", 0005 a personal tax id (Brazil's CPF), 1002 a
 * company or business tax id (EIN, VAT, IOSS, CNPJ, ABN, GST), 1001 "Other / Free Form". The consignee (AgentRole
 * 30) takes only 1002, 1005 or 0005 ("When the value passed to the AgentRole parameter is 30, the value passed to
 * the IDNumberTypeCode parameter must be 1002, 1005 or 0005"), so its EORI and unnamed numbers go as 1002, the
 * business tax id they are, the EORI still told apart by its purpose code.
 */
function idNumberTypeCode(r: TaxRegistration, party: TaxParty): string {
  if (r.type === "cpf") return "0005";
  if (party === "recipient") return "1002";
  if (r.type === "eori") return "0002";
  return r.type === "other" ? "1001" : "1002";
}

/**
 * The shipper's and recipient's registrations as UPS's `Shipment.GlobalTaxInformation`, the container that replaced
 * the deprecated per-party `TaxIdentificationNumber`. Purpose 02 marks an EORI, 01 ("Customs/Brokerage (Default)")
 * every other; numbers are sent unencrypted and printed on the brokerage documents; the requesting country is the
 * origin for the shipper's (export) and the destination for the recipient's (import), as the field's description
 * says. Undefined when neither party has one.
 */
export function globalTaxInformation(
  req: ShipRequest,
): Shipping["schemas"]["Shipment_GlobalTaxInformation"] | undefined {
  const requesting: Record<TaxParty, string> = {
    shipper: req.shipper.country_code.toUpperCase(),
    recipient: req.recipient.country_code.toUpperCase(),
  };
  const agents = (["shipper", "recipient"] as const).flatMap((party) => {
    const numbers = taxRegistrations(req, party).map((r): AgentTaxId => ({
      IdentificationNumber: r.number,
      IDNumberTypeCode: idNumberTypeCode(r, party),
      IDNumberPurposeCode: r.type === "eori" ? "02" : "01",
      IDNumberCustomerRole: AGENT_ROLES[party].customerRole,
      IDNumberEncryptionIndicator: "0",
      IDNumberRequestingCntryCd: requesting[party],
      ...(r.issuing_country ? { IDNumberIssuingCntryCd: r.issuing_country } : {}),
      IncludeIDNumberOnShippingBrokerageDocs: "01",
    }));
    return numbers.length ? [{ AgentRole: AGENT_ROLES[party].agentRole, TaxIdentificationNumber: numbers }] : [];
  });
  return agents.length ? { AgentTaxIdentificationNumber: agents } : undefined;
}
