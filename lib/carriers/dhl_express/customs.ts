import { cents } from "@/lib/carriers/currencies";
import type { components } from "@/lib/carriers/dhl_express/generated/mydhl";
import type {
  AdapterMessage,
  Customs,
  CustomsContentType,
  TaxRegistration,
  TaxRegistrationType,
} from "@/lib/carriers/types";
import { weightIn } from "@/lib/carriers/dhl_express/wire";
import { type UnitSystem } from "@/lib/carriers/units";

type Content = components["schemas"]["supermodelIoLogisticsExpressCreateShipmentRequest"]["content"];
type ExportDeclaration = NonNullable<Content["exportDeclaration"]>;
type Registration = components["schemas"]["supermodelIoLogisticsExpressRegistrationNumbers"];

/**
 * The customs declaration as MyDHL's `content.exportDeclaration`: one line item per commodity (unit price, pieces,
 * HS code as the outbound commodity code, country of manufacture, net and gross weight of the line), the invoice's
 * number and date, and why the goods travel. DHL draws the commercial invoice from it: printed when the shipper asks
 * for the paper, sent to customs electronically under Paperless Trade.
 */

/** Why the goods travel, in the spec's `exportReasonType` words. */
const EXPORT_REASONS: ReadonlyMap<CustomsContentType, NonNullable<ExportDeclaration["exportReasonType"]>> = new Map([
  ["merchandise", "commercial_purpose_or_sale"],
  ["gift", "gift"],
  ["sample", "sample"],
  ["return_merchandise", "return"],
  ["documents", "permanent"],
  ["other", "permanent"],
] as const);

export function exportDeclaration(
  customs: Customs,
  system: UnitSystem,
  invoice: { number: string; date: string },
): ExportDeclaration {
  const reason = EXPORT_REASONS.get(customs.content_type) ?? "permanent";
  return {
    lineItems: customs.commodities.map((c, i) => {
      const unit = weightIn(system, c.weight, c.weight_unit);
      const net = c.net_weight != null ? weightIn(system, c.net_weight, c.weight_unit) : unit * c.quantity;
      const gross = c.gross_weight != null ? weightIn(system, c.gross_weight, c.weight_unit) : net;
      return {
        number: i + 1,
        description: c.description.trim().slice(0, 512),
        price: cents(c.value_amount),
        quantity: { value: c.quantity, unitOfMeasurement: "PCS" as const },
        ...(c.hs_code ? { commodityCodes: [{ typeCode: "outbound" as const, value: c.hs_code }] } : {}),
        exportReasonType: reason,
        manufacturerCountry: c.origin_country.toUpperCase(),
        weight: { netValue: Math.round(net * 1000) / 1000, grossValue: Math.round(gross * 1000) / 1000 },
      };
    }),
    invoice: {
      number: invoice.number.slice(0, 35),
      date: invoice.date,
      ...(customs.certify && customs.signer ? { signatureName: customs.signer.trim().slice(0, 35) } : {}),
    },
    exportReasonType: reason,
    ...(customs.content_description ? { exportReason: customs.content_description.trim().slice(0, 30) } : {}),
  };
}

/** The declared value: the client's, else the commodities' own. */
export function declaredValue(customs: Customs): { value: number; currency: string } {
  const sum = customs.commodities.reduce((s, c) => s + c.value_amount * c.quantity, 0);
  return {
    value: cents(customs.duty.declared_value ?? sum),
    currency: (customs.duty.currency ?? customs.commodities[0]?.value_currency ?? "USD").toUpperCase(),
  };
}

/**
 * Our registration kinds in the spec's `registrationNumbers.typeCode` words (its description lists them): VAT, EIN,
 * GST, EOR (EORI), SDT ("Overseas Registered Supplier or Import One-Stop-Shop …"), CNP ("Brazil CNPJ/CPF Federal
 * Tax"). An ABN has no code of its own: Australian businesses register for GST under it, so it goes as GST. "other"
 * names no kind, so it is said unsent rather than sent under a guessed one.
 */
const REGISTRATION_TYPES: ReadonlyMap<TaxRegistrationType, Registration["typeCode"]> = new Map<
  TaxRegistrationType,
  Registration["typeCode"]
>([
  ["ein", "EIN"],
  ["vat", "VAT"],
  ["eori", "EOR"],
  ["ioss", "SDT"],
  ["cpf", "CNP"],
  ["cnpj", "CNP"],
  ["abn", "GST"],
  ["gst", "GST"],
]);

export function registrationNumbers(
  registrations: readonly TaxRegistration[],
  partyCountry: string,
  field: "shipper" | "recipient",
): { numbers: Registration[]; messages: AdapterMessage[] } {
  const numbers: Registration[] = [];
  const messages: AdapterMessage[] = [];
  for (const r of registrations) {
    const typeCode = REGISTRATION_TYPES.get(r.type);
    if (!typeCode) {
      messages.push({
        code: "not_supported",
        level: "warning",
        message: `DHL Express has no kind for a registration of type "${r.type}"; the ${field}'s number was not sent.`,
        details: { field: `customs.tax_registrations.${field}` },
      });
      continue;
    }
    // A VAT or EORI number starts with its country; otherwise the party's own country issued it.
    const prefix = /^[A-Z]{2}/i.exec(r.number)?.[0]?.toUpperCase();
    const issuer =
      r.issuing_country ?? ((r.type === "vat" || r.type === "eori") && prefix ? prefix : partyCountry.toUpperCase());
    numbers.push({ typeCode, number: r.number.trim().slice(0, 35), issuerCountryCode: issuer.toUpperCase() });
  }
  return { numbers, messages };
}
