import { randomInt } from "node:crypto";
import { XMLBuilder, XMLParser } from "fast-xml-parser";
import type { Address, Customs, LabelType } from "@/lib/carriers/types";
import { renderCommercialInvoice } from "@/lib/labels/invoice";
import { renderLabel } from "@/lib/labels/render";
import { problemText, type ContractProblem } from "./contract";
import type { CarrierState, EmulatedCarrier, EmulatorRequest, EmulatorResponse, Operation } from "./server";
import { xmlContract, type XmlDocument, type XmlOperation } from "./xml-contract";

/**
 * Canada Post's XML web services as the emulator speaks them (docs/canadapost.md; the XSDs in specs/canadapost/): Get
 * Rates, Create Shipment (contract) and Create Non-Contract Shipment with their labels behind `label` links, shipment
 * details, void (DELETE) and refund requests, and Get Tracking Details. Every request and answer is held to the
 * carrier's XSDs by xml-contract.ts (root element, namespace, schema, vendor media types).
 *
 * Callers: HTTP Basic on every call; a user name starting `invalid` is refused (401, E002 "AAA Authentication
 * Failure", Canada Post's words; docs/canadapost.md, "Errors"). Shipments are remembered per emulator reset: grouped
 * contract shipments are `created` (voidable) until transmitted; with `transmit-shipment` they are `transmitted` at
 * once (cancelled by refund request); non-contract shipments are cancelled by refund request only. Tracking follows the
 * time since the sale: created (3000), accepted (0100, a zero-padded identifier as Canada Post writes them), in
 * transit, out for delivery (0174), delivered (1496) after the service's days; any other PIN is 004 "No Pin History".
 */

const NS = {
  rate: "http://www.canadapost.ca/ws/ship/rate-v4",
  shipment: "http://www.canadapost.ca/ws/shipment-v8",
  ncshipment: "http://www.canadapost.ca/ws/ncshipment-v4",
  track: "http://www.canadapost.ca/ws/track",
  messages: "http://www.canadapost.ca/ws/messages",
};
const MEDIA = {
  rate: "application/vnd.cpc.ship.rate-v4+xml",
  shipment: "application/vnd.cpc.shipment-v8+xml",
  ncshipment: "application/vnd.cpc.ncshipment-v4+xml",
  track: "application/vnd.cpc.track-v2+xml",
};

const doc = (schema: string, namespace: string, element: string): XmlDocument => ({
  schema: `canadapost/${schema}`,
  namespace,
  element,
});
const MESSAGES = doc("messages.xsd", NS.messages, "messages");

interface Route extends XmlOperation {
  operation: Operation;
  name: string;
}

const route = (
  name: string,
  operation: Operation,
  method: string,
  pattern: RegExp,
  mediaType: string,
  request: XmlDocument | undefined,
  ok: [string, XmlDocument | "binary" | null],
): Route => ({
  id: `canadapost#${name}`,
  name,
  operation,
  method,
  pattern,
  mediaType,
  request,
  responses: new Map<string, XmlDocument | "binary" | null>([ok, ["default", MESSAGES]]),
});

const ROUTES: Route[] = [
  route("GetRates", "rate", "POST", /^\/rs\/ship\/price$/, MEDIA.rate, doc("rating.xsd", NS.rate, "mailing-scenario"), [
    "200",
    doc("rating.xsd", NS.rate, "price-quotes"),
  ]),
  route(
    "CreateShipment",
    "ship",
    "POST",
    /^\/rs\/(\d+)\/(\d+)\/shipment$/,
    MEDIA.shipment,
    doc("shipment.xsd", NS.shipment, "shipment"),
    ["200", doc("shipment.xsd", NS.shipment, "shipment-info")],
  ),
  route(
    "GetShipmentDetails",
    "void",
    "GET",
    /^\/rs\/(\d+)\/(\d+)\/shipment\/(\w+)\/details$/,
    MEDIA.shipment,
    undefined,
    ["200", doc("shipment.xsd", NS.shipment, "shipment-details")],
  ),
  route("VoidShipment", "void", "DELETE", /^\/rs\/(\d+)\/(\d+)\/shipment\/(\w+)$/, MEDIA.shipment, undefined, [
    "204",
    null,
  ]),
  route(
    "RequestShipmentRefund",
    "void",
    "POST",
    /^\/rs\/(\d+)\/(\d+)\/shipment\/(\w+)\/refund$/,
    MEDIA.shipment,
    doc("shipment.xsd", NS.shipment, "shipment-refund-request"),
    ["200", doc("shipment.xsd", NS.shipment, "shipment-refund-request-info")],
  ),
  route(
    "CreateNonContractShipment",
    "ship",
    "POST",
    /^\/rs\/(\d+)\/ncshipment$/,
    MEDIA.ncshipment,
    doc("ncshipment.xsd", NS.ncshipment, "non-contract-shipment"),
    ["200", doc("ncshipment.xsd", NS.ncshipment, "non-contract-shipment-info")],
  ),
  route(
    "GetNonContractShipmentDetails",
    "void",
    "GET",
    /^\/rs\/(\d+)\/ncshipment\/(\w+)\/details$/,
    MEDIA.ncshipment,
    undefined,
    ["200", doc("ncshipment.xsd", NS.ncshipment, "non-contract-shipment-details")],
  ),
  route(
    "RequestNonContractShipmentRefund",
    "void",
    "POST",
    /^\/rs\/(\d+)\/ncshipment\/(\w+)\/refund$/,
    MEDIA.ncshipment,
    doc("ncshipment.xsd", NS.ncshipment, "non-contract-shipment-refund-request"),
    ["200", doc("ncshipment.xsd", NS.ncshipment, "non-contract-shipment-refund-request-info")],
  ),
  route("GetArtifact", "label", "GET", /^\/rs\/artifact\/(\w+)\/(\w+)\/0$/, "application/pdf", undefined, [
    "200",
    "binary",
  ]),
  route("GetTrackingDetails", "track", "GET", /^\/vis\/track\/pin\/(\w+)\/detail$/, MEDIA.track, undefined, [
    "200",
    doc("track.xsd", NS.track, "tracking-detail"),
  ]),
];

const routeOf = (method: string, path: string) => ROUTES.find((r) => r.method === method && r.pattern.test(path));

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", suppressEmptyNode: false });
const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name, jpath) => ["option", "item"].includes(name) || String(jpath).endsWith("services.service-code"),
});

type Tree = Record<string, unknown>;
const node = (v: unknown): Tree => (v && typeof v === "object" && !Array.isArray(v) ? (v as Tree) : {});
const str = (v: unknown): string => (typeof v === "string" ? v.trim() : "");

function xml(root: string, namespace: string, body: Tree): string {
  return builder.build({
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    [root]: { "@_xmlns": namespace, ...body },
  }) as string;
}

const answer = (status: number, body: string, mediaType: string): EmulatorResponse => ({
  status,
  body,
  headers: { "content-type": mediaType },
});

function messages(status: number, list: [string, string][], mediaType = "application/xml"): EmulatorResponse {
  return answer(
    status,
    xml("messages", NS.messages, { message: list.map(([code, description]) => ({ code, description })) }),
    mediaType,
  );
}

// A tariff: base per service (CAD) and per kg, and the business days it takes (docs/canadapost.md, "Services").
const TARIFF: ReadonlyMap<string, { name: string; base: number; perKg: number; days: number }> = new Map([
  ["DOM.RP", { name: "Regular Parcel", base: 11.5, perKg: 1.9, days: 6 }],
  ["DOM.EP", { name: "Expedited Parcel", base: 12.9, perKg: 2.2, days: 4 }],
  ["DOM.XP", { name: "Xpresspost", base: 18.4, perKg: 3.1, days: 2 }],
  ["DOM.PC", { name: "Priority", base: 29.9, perKg: 4.4, days: 1 }],
  ["USA.EP", { name: "Expedited Parcel USA", base: 21.3, perKg: 4.6, days: 6 }],
  ["USA.TP", { name: "Tracked Packet - USA", base: 17.2, perKg: 6.1, days: 7 }],
  ["USA.XP", { name: "Xpresspost USA", base: 34.6, perKg: 6.9, days: 3 }],
  ["INT.XP", { name: "Xpresspost International", base: 61.3, perKg: 12.4, days: 5 }],
  ["INT.IP.AIR", { name: "International Parcel Air", base: 44.8, perKg: 10.2, days: 8 }],
  ["INT.TP", { name: "Tracked Packet - International", base: 31.5, perKg: 14.6, days: 10 }],
]);

function servicesFor(destination: Tree): string[] {
  if ("domestic" in destination) return ["DOM.RP", "DOM.EP", "DOM.XP", "DOM.PC"];
  if ("united-states" in destination) return ["USA.EP", "USA.TP", "USA.XP"];
  return ["INT.XP", "INT.IP.AIR", "INT.TP"];
}

const money = (n: number) => (Math.round(n * 100) / 100).toFixed(2);

/** The price of one parcel: base, a fuel surcharge (FUELSC), coverage (COV) when asked, and 13 % HST in Canada. */
function price(code: string, weight: number, domestic: boolean, options: Tree[]) {
  const t = TARIFF.get(code)!;
  const base = Math.round((t.base + t.perKg * weight) * 100) / 100;
  const fuel = Math.round(base * 0.155 * 100) / 100;
  const cov = options.find((o) => str(o["option-code"]) === "COV");
  const coverage = cov ? Math.round(Math.max(0, Number(str(cov["option-amount"])) - 100) * 0.0275 * 100) / 100 : 0;
  const signature = options.some((o) => ["SO", "PA18"].includes(str(o["option-code"]))) ? 2.5 : 0;
  const pretax = base + fuel + coverage + signature;
  const hst = domestic ? Math.round(pretax * 0.13 * 100) / 100 : 0;
  return { base, fuel, coverage, signature, hst, due: Math.round((pretax + hst) * 100) / 100, days: t.days };
}

function addBusinessDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  for (let left = days; left > 0;) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
  }
  return d.toISOString().slice(0, 10);
}

const today = (state: CarrierState) => state.now().toISOString().slice(0, 10);

function rate(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const scenario = node(parser.parse(req.body)["mailing-scenario"]);
  const destination = node(scenario.destination);
  const weight = Number(str(node(scenario["parcel-characteristics"]).weight));
  const options = (node(scenario.options).option as Tree[] | undefined) ?? [];
  const asked = (node(scenario.services)["service-code"] as string[] | undefined) ?? [];
  const offered = servicesFor(destination).filter((c) => asked.length === 0 || asked.includes(c));
  if (weight > 30) return messages(400, [["9111", "The parcel is over the maximum weight of 30 kg."]], MEDIA.rate);
  const mailing = str(scenario["expected-mailing-date"]) || today(state);
  const quotes = offered.map((code) => {
    const p = price(code, weight, "domestic" in destination, options);
    const priced = [
      ...(p.coverage ? [{ "option-code": "COV", "option-name": "Coverage", "option-price": money(p.coverage) }] : []),
      ...(p.signature ? [{ "option-code": "SO", "option-name": "Signature", "option-price": money(p.signature) }] : []),
    ];
    return {
      "service-code": code,
      "service-link": {
        "@_rel": "service",
        "@_href": `https://ct.soa-gw.canadapost.ca/rs/ship/service/${code}`,
        "@_media-type": "application/vnd.cpc.ship.rate-v4+xml",
      },
      "service-name": TARIFF.get(code)!.name,
      "price-details": {
        base: money(p.base),
        ...(p.hst ? { taxes: { hst: money(p.hst) } } : {}),
        due: money(p.due),
        ...(priced.length ? { options: { option: priced } } : {}),
        adjustments: {
          adjustment: [
            { "adjustment-code": "FUELSC", "adjustment-name": "Fuel surcharge", "adjustment-cost": money(p.fuel) },
          ],
        },
      },
      "weight-details": {},
      "service-standard": {
        "am-delivery": "false",
        "guaranteed-delivery": code === "DOM.PC" ? "true" : "false",
        "expected-transit-time": String(p.days),
        "expected-delivery-date": addBusinessDays(mailing, p.days),
      },
    };
  });
  return answer(200, xml("price-quotes", NS.rate, quotes.length ? { "price-quote": quotes } : {}), MEDIA.rate);
}

interface Sold {
  id: string;
  pin: string;
  contract: boolean;
  status: "created" | "transmitted";
  encoding: LabelType;
  service: string;
  soldAt: number;
  shippingPoint: string;
  refund: { id: string; date: string } | null;
}

/** Files behind `/rs/artifact/…` links: labels and commercial invoices, by artifact id. */
const artifactsOf = (state: CarrierState) => {
  let m = state.data.get("artifacts") as Map<string, { bytes: Uint8Array; mediaType: string }> | undefined;
  if (!m) state.data.set("artifacts", (m = new Map()));
  return m;
};

/** The declaration Canada Post was sent, as lib/labels draws an invoice from (what its sku-list says). */
function customsOf(customs: Tree): Customs {
  const items = (node(customs["sku-list"]).item as Tree[] | undefined) ?? [];
  return {
    content_type: "merchandise",
    content_description: null,
    incoterm: "DAP",
    duty: {
      paid_by: "recipient",
      currency: str(customs.currency) || "CAD",
      account_number: null,
      declared_value: null,
    },
    invoice: str(customs["invoice-number"]) || null,
    invoice_date: null,
    commercial_invoice: false,
    certify: true,
    signer: null,
    aes: null,
    eel_pfc: null,
    commodities: items.map((i) => ({
      description: str(i["customs-description"]),
      quantity: Number(str(i["customs-number-of-units"])),
      value_amount: Number(str(i["customs-value-per-unit"])),
      value_currency: str(customs.currency) || "CAD",
      weight: Number(str(i["unit-weight"])),
      weight_unit: "KG",
      hs_code: str(i["hs-tariff-code"]).replace(/\./g, "") || null,
      origin_country: str(i["country-of-origin"]) || "CA",
      sku: str(i.sku) || null,
    })),
    options: {},
  };
}

const soldOf = (state: CarrierState) => {
  let m = state.data.get("sold") as Map<string, Sold> | undefined;
  if (!m) state.data.set("sold", (m = new Map()));
  return m;
};

function address(details: Tree, name: unknown, company: unknown): Partial<Address> {
  return {
    person_name: str(name) || null,
    company_name: str(company) || null,
    address_line1: str(details["address-line-1"]),
    city: str(details.city),
    state_code: str(details["prov-state"]),
    postal_code: str(details["postal-zip-code"]),
    country_code: str(details["country-code"]) || "CA",
  };
}

const full = (a: Partial<Address>): Address => ({
  person_name: a.person_name ?? null,
  company_name: a.company_name ?? null,
  address_line1: a.address_line1 ?? "",
  address_line2: null,
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
});

const origin = (req: EmulatorRequest) => `http://${req.headers.host ?? "127.0.0.1"}/canadapost`;

async function ship(req: EmulatorRequest, state: CarrierState, contract: boolean): Promise<EmulatorResponse> {
  const media = contract ? MEDIA.shipment : MEDIA.ncshipment;
  const root = node(parser.parse(req.body)[contract ? "shipment" : "non-contract-shipment"]);
  const spec = node(root["delivery-spec"]);
  const service = str(spec["service-code"]);
  const tariff = TARIFF.get(service);
  if (!tariff) return messages(400, [["8512", `The service ${service} is not available.`]], media);
  const destination = node(spec.destination);
  const destDetails = node(destination["address-details"]);
  const country = str(destDetails["country-code"]);
  const options = (node(spec.options).option as Tree[] | undefined) ?? [];
  // Canada Post's rule in prose: a parcel leaving Canada carries a non-delivery instruction (RASE, RTS or ABAN).
  if (country !== "CA" && !options.some((o) => ["RASE", "RTS", "ABAN"].includes(str(o["option-code"])))) {
    return messages(400, [["9122", "A non-delivery handling option is required for this destination."]], media);
  }
  // Prose rules of Create Shipment's destination: a Canadian address has its province and a full postal code, a US one
  // its state and ZIP code. The codes are the emulator's own.
  const postal = str(destDetails["postal-zip-code"]);
  if (country === "CA" && (!/^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(postal) || !str(destDetails["prov-state"]))) {
    return messages(400, [["1153", "A destination in Canada needs its province and postal code (A1A1A1)."]], media);
  }
  if (country === "US" && (!/^\d{5}(-\d{4})?$/.test(postal) || !str(destDetails["prov-state"]))) {
    return messages(400, [["1154", "A destination in the United States needs its state and ZIP code."]], media);
  }
  if (country !== "CA" && !("customs" in spec)) {
    return messages(400, [["9163", "Customs information is required for this destination."]], media);
  }
  const weight = Number(str(node(spec["parcel-characteristics"]).weight));
  const encoding: LabelType = str(node(spec["print-preferences"]).encoding) === "ZPL" ? "ZPL" : "PDF";
  const sender = node(spec.sender);
  const senderAddress = address(node(sender["address-details"]), sender.name, sender.company);
  const recipient = address(destDetails, destination.name, destination.company);
  const id = `${randomInt(10 ** 8, 10 ** 9)}${randomInt(10 ** 8, 10 ** 9)}`;
  const pin = `${randomInt(10 ** 7, 10 ** 8)}${randomInt(10 ** 7, 10 ** 8)}`;
  const label = await renderLabel(
    {
      carrierName: "Canada Post",
      serviceName: tariff.name,
      trackingNumber: pin,
      shipper: full({ ...senderAddress, country_code: senderAddress.country_code || "CA" }),
      recipient: full(recipient),
      weightText: `${weight} KG`,
      reference: str(node(spec.references)["customer-ref-1"]) || null,
      shipDate: today(state),
      barcodeValue: pin,
      routingText: `${country} ${recipient.postal_code ?? ""}`.trim(),
      footerText: "CARRIER EMULATOR - NOT A REAL CANADA POST LABEL",
    },
    encoding,
  );
  const sold: Sold = {
    id,
    pin,
    contract,
    status: contract && "transmit-shipment" in root ? "transmitted" : "created",
    encoding,
    service,
    soldAt: state.now().getTime(),
    shippingPoint: str(root["requested-shipping-point"]) || "K1A0B1",
    refund: null,
  };
  soldOf(state).set(id, sold);
  const artifacts = artifactsOf(state);
  const labelArtifact = String(randomInt(10 ** 6, 10 ** 7));
  artifacts.set(labelArtifact, { bytes: label, mediaType: encoding === "ZPL" ? "application/zpl" : "application/pdf" });
  // A parcel leaving Canada comes with Canada Post's commercial invoice, a PDF behind its own link.
  let invoiceArtifact: string | null = null;
  if (country !== "CA") {
    invoiceArtifact = String(randomInt(10 ** 6, 10 ** 7));
    const invoice = await renderCommercialInvoice({
      carrierName: "Canada Post",
      serviceName: tariff.name,
      trackingNumber: pin,
      shipper: full({ ...senderAddress, country_code: senderAddress.country_code || "CA" }),
      recipient: full(recipient),
      customs: customsOf(node(spec.customs)),
      date: today(state),
      reference: null,
      footerText: "CARRIER EMULATOR - NOT A REAL CANADA POST DOCUMENT",
    });
    artifacts.set(invoiceArtifact, { bytes: invoice, mediaType: "application/pdf" });
  }
  const base = `${origin(req)}${req.path}/${id}`;
  const links = {
    link: [
      { "@_rel": "self", "@_href": base, "@_media-type": media },
      { "@_rel": "details", "@_href": `${base}/details`, "@_media-type": media },
      { "@_rel": "refund", "@_href": `${base}/refund`, "@_media-type": media },
      {
        "@_rel": "label",
        "@_href": `${origin(req)}/rs/artifact/emulatorkey/${labelArtifact}/0`,
        "@_index": "0",
        "@_media-type": encoding === "ZPL" ? "application/zpl" : "application/pdf",
      },
      ...(invoiceArtifact
        ? [
            {
              "@_rel": "commercialInvoice",
              "@_href": `${origin(req)}/rs/artifact/emulatorkey/${invoiceArtifact}/0`,
              "@_index": "0",
              "@_media-type": "application/pdf",
            },
          ]
        : []),
    ],
  };
  if (!contract) {
    return answer(
      200,
      xml("non-contract-shipment-info", NS.ncshipment, { "shipment-id": id, "tracking-pin": pin, links }),
      media,
    );
  }
  const p = price(service, weight, country === "CA", options);
  return answer(
    200,
    xml("shipment-info", NS.shipment, {
      "shipment-id": id,
      "shipment-status": sold.status,
      "tracking-pin": pin,
      "shipment-price": {
        "service-code": service,
        "base-amount": money(p.base),
        ...(p.coverage || p.signature
          ? {
              "priced-options": {
                "priced-option": [
                  ...(p.coverage ? [{ "option-code": "COV", "option-price": money(p.coverage) }] : []),
                  ...(p.signature ? [{ "option-code": "SO", "option-price": money(p.signature) }] : []),
                ],
              },
            }
          : {}),
        adjustments: { adjustment: [{ "adjustment-code": "FUELSC", "adjustment-amount": money(p.fuel) }] },
        "pre-tax-amount": money(p.due - p.hst),
        "gst-amount": "0.00",
        "pst-amount": "0.00",
        "hst-amount": money(p.hst),
        "due-amount": money(p.due),
        "service-standard": {
          "am-delivery": "false",
          "guaranteed-delivery": "false",
          "expected-transmit-time": String(p.days),
          "expected-delivery-date": addBusinessDays(today(state), p.days),
        },
        "rated-weight": weight.toFixed(3),
      },
      links,
    }),
    media,
  );
}

function details(req: EmulatorRequest, state: CarrierState, contract: boolean, id: string): EmulatorResponse {
  const media = contract ? MEDIA.shipment : MEDIA.ncshipment;
  const sold = soldOf(state).get(id);
  if (!sold || sold.contract !== contract) return messages(404, [["8010", "The shipment was not found."]], media);
  const refund = sold.refund
    ? { "refund-request-info": { "service-ticket-date": sold.refund.date, "service-ticket-id": sold.refund.id } }
    : {};
  // The emulator keeps only what it answers with; the rest of the details is a plausible fixed shipment.
  const spec = {
    "service-code": sold.service,
    sender: {
      company: "Shipper",
      "contact-phone": "",
      "address-details": contract
        ? {
            "address-line-1": "1 Main St",
            city: "Ottawa",
            "prov-state": "ON",
            "country-code": "CA",
            "postal-zip-code": sold.shippingPoint,
          }
        : { "address-line-1": "1 Main St", city: "Ottawa", "prov-state": "ON", "postal-zip-code": sold.shippingPoint },
    },
    destination: { "address-details": { "address-line-1": "290 Bremner Blvd", "country-code": "CA" } },
    "parcel-characteristics": { weight: "1.000" },
    preferences: { "show-packing-instructions": "true" },
  };
  if (!contract) {
    return answer(
      200,
      xml("non-contract-shipment-details", NS.ncshipment, {
        "final-shipping-point": sold.shippingPoint,
        "tracking-pin": sold.pin,
        "delivery-spec": spec,
        ...refund,
      }),
      media,
    );
  }
  return answer(
    200,
    xml("shipment-details", NS.shipment, {
      "shipment-status": sold.status,
      "final-shipping-point": sold.shippingPoint,
      "tracking-pin": sold.pin,
      "shipment-detail": {
        ...(sold.status === "transmitted" ? { "transmit-shipment": "true" } : { "group-id": "EMULATOR" }),
        "delivery-spec": { ...spec, "settlement-info": { "intended-method-of-payment": "Account" } },
        ...refund,
      },
    }),
    media,
  );
}

function voidShipment(state: CarrierState, id: string): EmulatorResponse {
  const sold = soldOf(state).get(id);
  if (!sold || !sold.contract) return messages(404, [["8010", "The shipment was not found."]], MEDIA.shipment);
  if (sold.status === "transmitted") {
    return messages(
      400,
      [["8064", "The shipment has been transmitted and cannot be voided; request a refund."]],
      MEDIA.shipment,
    );
  }
  soldOf(state).delete(id);
  return { status: 204, body: "" };
}

function refund(req: EmulatorRequest, state: CarrierState, contract: boolean, id: string): EmulatorResponse {
  const media = contract ? MEDIA.shipment : MEDIA.ncshipment;
  const sold = soldOf(state).get(id);
  if (!sold || sold.contract !== contract) return messages(404, [["8010", "The shipment was not found."]], media);
  if (contract && sold.status !== "transmitted") {
    return messages(400, [["8066", "The shipment has not been transmitted; void it instead."]], media);
  }
  // Asked again, Canada Post's ticket stands (the emulator's reading; its documentation does not say).
  sold.refund ??= { id: String(randomInt(10 ** 9, 10 ** 10)), date: today(state) };
  const info = { "service-ticket-date": sold.refund.date, "service-ticket-id": sold.refund.id };
  return answer(
    200,
    contract
      ? xml("shipment-refund-request-info", NS.shipment, info)
      : xml("non-contract-shipment-refund-request-info", NS.ncshipment, info),
    media,
  );
}

function artifact(state: CarrierState, id: string): EmulatorResponse {
  const file = artifactsOf(state).get(id);
  if (!file) return messages(404, [["8010", "The artifact was not found."]]);
  return { status: 200, body: file.bytes, headers: { "content-type": file.mediaType } };
}

const HOUR = 3_600_000;

/** Tracking calls per API key per rolling 60 s before Canada Post's SLM Monitor refuses (its default limit). */
const CANADAPOST_TRACKING_LIMIT = 20;

/**
 * Canada Post's throttle (docs/carriers.md, "Tracking budgets"): per API key and rolling minute, over its limit
 * "Server" / "Rejected by SLM Monitor". Canada Post does not document the HTTP status of that answer; the emulator's is
 * 503 (a gateway refusing), and the adapter reads the message whatever the status.
 */
function throttled(req: EmulatorRequest, state: CarrierState): EmulatorResponse | null {
  const user = Buffer.from(/^Basic (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "", "base64")
    .toString("utf8")
    .split(":")[0]!;
  const key = `track-window:${user}`;
  const now = state.now().getTime();
  const recent = ((state.data.get(key) as number[] | undefined) ?? []).filter((t) => t > now - 60_000);
  if (recent.length >= CANADAPOST_TRACKING_LIMIT) {
    state.data.set(key, recent);
    return messages(503, [["Server", "Rejected by SLM Monitor"]], MEDIA.track);
  }
  state.data.set(key, [...recent, now]);
  return null;
}

function track(req: EmulatorRequest, state: CarrierState, pin: string): EmulatorResponse {
  const limited = throttled(req, state);
  if (limited) return limited;
  const sold = [...soldOf(state).values()].find((s) => s.pin === pin);
  if (!sold) return messages(404, [["004", "No Pin History"]], MEDIA.track);
  const hours = (state.now().getTime() - sold.soldAt) / HOUR;
  const days = TARIFF.get(sold.service)!.days;
  const at = (h: number) => new Date(sold.soldAt + h * HOUR - 5 * HOUR); // Eastern standard time
  const steps: [number, string, string, string][] = [
    [0, "3000", "Electronic information submitted by shipper", "OTTAWA"],
    [3, "0100", "Item processed at postal facility", "OTTAWA"],
    [12, "0170", "Item in transit", "MONTREAL"],
    [days * 24 - 6, "0174", "Item out for delivery", "TORONTO"],
    [days * 24, "1496", "Item successfully delivered", "TORONTO"],
  ];
  const occurred = steps.filter(([h]) => h <= hours).reverse();
  const delivered = occurred[0]?.[1] === "1496";
  return answer(
    200,
    xml("tracking-detail", NS.track, {
      pin,
      "active-exists": "1",
      "archive-exists": "",
      "changed-expected-date": "",
      "destination-postal-id": "M5V",
      "expected-delivery-date": addBusinessDays(new Date(sold.soldAt).toISOString().slice(0, 10), days),
      "changed-expected-delivery-reason": "",
      "mailed-by-customer-number": "",
      "mailed-on-behalf-of-customer-number": "",
      "original-pin": "",
      "service-name": TARIFF.get(sold.service)!.name,
      "service-name-2": "",
      "customer-ref-1": "",
      "customer-ref-2": "",
      "return-pin": "",
      "signature-image-exists": delivered ? "true" : "false",
      "suppress-signature": "false",
      "delivery-options": {},
      "significant-events": {
        occurrence: occurred.map(([h, id, description, site]) => ({
          "event-identifier": id,
          "event-date": at(h).toISOString().slice(0, 10),
          "event-time": at(h).toISOString().slice(11, 19),
          "event-time-zone": "EST",
          "event-description": description,
          "signatory-name": id === "1496" ? "R RECEIVER" : "",
          "event-site": site,
          "event-province": "ON",
          "event-retail-location-id": "",
          "event-retail-name": "",
        })),
      },
    }),
    MEDIA.track,
  );
}

const refuse = (problems: ContractProblem[]): EmulatorResponse =>
  // Canada Post answers a schema failure as code "Server" with the validator's cvc-… text
  // (docs/canadapost.md, "Errors").
  messages(
    400,
    problems.slice(0, 20).map((p): [string, string] => ["Server", problemText(p)]),
  );

export const canadapostEmulator: EmulatedCarrier = {
  name: "canadapost",
  contentType: "application/xml",
  contract: { files: [], load: () => xmlContract(ROUTES), refuse },
  tokenTtlSeconds: 0,
  operationOf(method, path) {
    return routeOf(method, path)?.operation ?? null;
  },
  authorize(headers) {
    const basic = /^Basic (.+)$/i.exec(headers.authorization ?? "")?.[1];
    const user = basic ? Buffer.from(basic, "base64").toString("utf8").split(":")[0] : "";
    return Boolean(user) && !user!.startsWith("invalid");
  },
  async handle(req, state) {
    const r = routeOf(req.method, req.path)!;
    // Canada Post answers in the language asked for, and asks that it be said (docs/canadapost.md, "Credentials").
    if (!/^(en|fr)-CA$/i.test(String(req.headers["accept-language"] ?? ""))) {
      return messages(400, [["Server", "Accept-language must be en-CA or fr-CA."]], r.mediaType);
    }
    const m = r.pattern.exec(req.path)!;
    switch (r.name) {
      case "GetRates":
        return rate(req, state);
      case "CreateShipment":
        return ship(req, state, true);
      case "CreateNonContractShipment":
        return ship(req, state, false);
      case "GetShipmentDetails":
        return details(req, state, true, m[3]!);
      case "GetNonContractShipmentDetails":
        return details(req, state, false, m[2]!);
      case "VoidShipment":
        return voidShipment(state, m[3]!);
      case "RequestShipmentRefund":
        return refund(req, state, true, m[3]!);
      case "RequestNonContractShipmentRefund":
        return refund(req, state, false, m[2]!);
      case "GetArtifact":
        return artifact(state, m[2]!);
      default:
        return track(req, state, m[1]!);
    }
  },
  errorBody(status, code, message) {
    // Canada Post's words for what the emulator answers on its own (docs/canadapost.md, "Errors"): refused credentials
    // are E002, a throttled key is "Server" / "Rejected by SLM Monitor"; anything else in the same shape.
    const [c, description] =
      status === 401
        ? ["E002", "AAA Authentication Failure"]
        : status === 429
          ? ["Server", "Rejected by SLM Monitor"]
          : [code, message];
    return xml("messages", NS.messages, { message: [{ code: c, description }] });
  },
};
