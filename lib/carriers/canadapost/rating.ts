import { CarrierError, carrierCode, type AdapterMessage, type RateQuote, type RateRequest } from "@/lib/carriers/types";
import { cents } from "@/lib/carriers/currencies";
import { badResponse } from "./errors";
import { dimensionsCm, oneCanadaPostParcel, optionCodes, postalCode, weightKg } from "./wire";
import type { MailingScenario } from "./requests";
import { amount, buildXml, list, NAMESPACE, node, parseXml, text } from "./xml";

/**
 * Get Rates (docs/canadapost.md, "Rates"): `POST /rs/ship/price`, a `mailing-scenario` (rating.xsd) for the one parcel,
 * from a Canadian postal code to a Canadian postal code, a US ZIP code or a country. Quotes are in CAD (Canada Post's
 * only currency; the answer names none).
 */

/** Where the parcel goes, in rating.xsd's `destination` choice. */
function destination(req: RateRequest): MailingScenario["destination"] {
  const r = req.recipient;
  const country = r.country_code.toUpperCase();
  const code = postalCode(r.postal_code);
  if (country === "CA") {
    if (!/^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(code)) {
      throw new CarrierError(
        carrierCode("CANADAPOST_FIELD_REQUIRED"),
        "Canada Post prices a Canadian parcel by its full postal code (A1A 1A1).",
        {
          field: "recipient.postal_code",
        },
      );
    }
    return { domestic: { "postal-code": code } };
  }
  if (country === "US") {
    const zip = r.postal_code.trim();
    if (!/^\d{5}(-\d{4})?$/.test(zip)) {
      throw new CarrierError(
        carrierCode("CANADAPOST_FIELD_REQUIRED"),
        "Canada Post prices a US parcel by its ZIP code (5 digits, or ZIP+4).",
        {
          field: "recipient.postal_code",
        },
      );
    }
    return { "united-states": { "zip-code": zip } };
  }
  return { international: { "country-code": country, "postal-code": code ? code.slice(0, 10) : undefined } };
}

/** The shipper's postal code: Canada Post ships from Canada only. */
export function originPostalCode(req: { shipper: RateRequest["shipper"] }): string {
  const code = postalCode(req.shipper.postal_code);
  if (req.shipper.country_code.toUpperCase() !== "CA" || !/^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(code)) {
    throw new CarrierError("not_supported", "Canada Post ships from a Canadian postal code only.", {
      field: "shipper.postal_code",
    });
  }
  return code;
}

export function buildRateRequest(
  req: RateRequest,
  opts: { customerNumber: string; contractId: string | null; shipDate: string },
): { body: string; messages: AdapterMessage[] } {
  const messages: AdapterMessage[] = [];
  const parcel = oneCanadaPostParcel(req.parcels);
  const options = optionCodes(req.options, messages);
  const scenario: MailingScenario = {
    "customer-number": opts.customerNumber,
    // With a contract, the contract's prices; without, the account's (commercial, Canada Post's default).
    "contract-id": opts.contractId ?? undefined,
    "expected-mailing-date": opts.shipDate,
    options: options.length ? { option: options } : undefined,
    "parcel-characteristics": { weight: weightKg(parcel), dimensions: dimensionsCm(parcel) },
    services: req.services.length ? { "service-code": req.services.slice(0, 20) } : undefined,
    "origin-postal-code": originPostalCode(req),
    destination: destination(req),
  };
  return { body: buildXml("mailing-scenario", NAMESPACE.rate, scenario), messages };
}

export function parseRateResponse(
  xml: string,
  requested: string[],
): { quotes: RateQuote[]; messages: AdapterMessage[] } {
  const root = node(parseXml(xml)["price-quotes"]);
  if (!root) throw badResponse("price quotes");
  const wanted = new Set(requested);
  const quotes: RateQuote[] = [];
  for (const raw of list(root["price-quote"])) {
    const q = node(raw);
    const code = text(q?.["service-code"]);
    const details = node(q?.["price-details"]);
    const base = amount(details?.base);
    const due = amount(details?.due);
    if (!q || !code || !details || base === null || due === null) throw badResponse("a priced service");
    if (wanted.size && !wanted.has(code)) continue;
    const extras = list(node(details.options)?.option).map((o) => ({
      name: text(node(o)?.["option-name"]) ?? text(node(o)?.["option-code"]) ?? "Option",
      amount: amount(node(o)?.["option-price"]) ?? 0,
      currency: "CAD",
    }));
    let discount = 0;
    for (const a of list(node(details.adjustments)?.adjustment)) {
      const cost = amount(node(a)?.["adjustment-cost"]) ?? 0;
      // Negative adjustments are discounts (AUTDISC, promotions); positive ones surcharges (FUELSC).
      if (cost < 0) discount += -cost;
      else extras.push({ name: text(node(a)?.["adjustment-name"]) ?? "Adjustment", amount: cost, currency: "CAD" });
    }
    const taxes = node(details.taxes);
    const tax = ["gst", "pst", "hst"].reduce((s, k) => s + (amount(taxes?.[k]) ?? 0), 0);
    const standard = node(q["service-standard"]);
    quotes.push({
      service: code,
      service_name: text(q["service-name"]) ?? code,
      currency: "CAD",
      base_charge: cents(base),
      discount: cents(discount),
      duties_and_taxes: cents(tax),
      total_charge: cents(due),
      extra_charges: extras.filter((e) => e.amount !== 0),
      transit_days: amount(standard?.["expected-transit-time"]) ?? 0,
      estimated_delivery: text(standard?.["expected-delivery-date"]),
    });
  }
  const messages: AdapterMessage[] = [];
  if (wanted.size) {
    const quoted = new Set(quotes.map((q) => q.service));
    const missing = [...wanted].filter((s) => !quoted.has(s));
    if (missing.length === wanted.size) {
      throw new CarrierError(
        carrierCode("CANADAPOST_SERVICE_NOT_OFFERED"),
        `Canada Post does not offer ${missing.join(", ")} on this route.`,
        { services: missing },
      );
    }
    for (const s of missing) {
      messages.push({
        code: carrierCode("CANADAPOST_SERVICE_NOT_OFFERED"),
        level: "warning",
        message: `Canada Post does not offer ${s} on this route.`,
        details: { service: s },
      });
    }
  }
  return { quotes, messages };
}
