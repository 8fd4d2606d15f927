import type { IncomingMessage } from "node:http";
import type { Address, LabelType } from "@/lib/carriers/types";
import type { LabelContent } from "@/lib/labels/content";
import { renderPdfLabel } from "@/lib/labels/pdf";
import { renderZplLabel } from "@/lib/labels/zpl";
import { localClock, originTimeZone } from "@/lib/carriers/ship-date";
import { problemText } from "./contract";
import type {
  CarrierContract,
  CarrierState,
  EmulatedCarrier,
  EmulatorRequest,
  EmulatorResponse,
  Operation,
} from "./server";
import { dhlAddressValidate } from "./dhl-address";

/**
 * DHL Express as MyDHL API 3.x answers (shapes checked against the vendored dpdhl-express-api-3.1.1_swagger.yaml):
 * HTTP Basic on every call, `POST /rates`, `POST /shipments`, `GET /shipments/{n}/tracking`. Refusals are DHL's
 * problem+json (`instance`, `detail`, `title`, `message`, `status` as text, `additionalDetails[]` for several); a
 * number DHL does not know is its 404 "No data found". There is no cancel: MyDHL has none.
 *
 * It sells real labels (PDF, ZPL) with a waybill document and, for declarable goods, a commercial invoice, under
 * 10-digit waybill numbers with DHL's check digit (the first nine digits mod 7), and tracks any well-formed number
 * along a journey timed from the sale: the number carries its sale hour and a scenario digit, like FedEx's emulator,
 * `HHHHHH S C D` (hours since 2024-01-01 UTC, serial, scenario, check digit). Scenario 9, a bad check digit or a sale in
 * the future is not found: `dhlEmulatorNumber({ scenario: 9 })` is the recognisable unknown number.
 *
 * Where the spec states a rule only in words (a date no more than 10 days ahead, an export declaration for declarable
 * goods, Paperless Trade only where the lane allows it), the check is here with its place in the spec; where DHL
 * publishes no code for the refusal, the code is the emulator's, in DHL's style, and says so.
 */

const EPOCH = Date.UTC(2024, 0, 1);
const HOUR = 3_600_000;

// --- waybill numbers -----------------------------------------------------------------------------------------------

/** DHL Express's check digit: the first nine digits as a number, mod 7 (1103733901 is a real one). */
export const dhlCheckDigit = (first9: string): number => Number(first9) % 7;

/** A number the emulator tracks: sold at `soldAt` (to the hour), with a serial and a scenario digit. */
export function dhlEmulatorNumber(opts: { soldAt?: Date; serial?: number; scenario?: number } = {}): string {
  const hours = Math.floor(((opts.soldAt ?? new Date()).getTime() - EPOCH) / HOUR);
  const data = `${String(hours).padStart(6, "0")}${(opts.serial ?? 0) % 10}${opts.scenario ?? 0}`.slice(-8);
  const first9 = `1${data}`;
  return first9 + dhlCheckDigit(first9);
}

function parseNumber(n: string): { soldAt: Date; scenario: number } | null {
  if (!/^1\d{9}$/.test(n) || dhlCheckDigit(n.slice(0, 9)) !== Number(n[9])) return null;
  return { soldAt: new Date(EPOCH + Number(n.slice(1, 7)) * HOUR), scenario: Number(n[8]) };
}

// --- DHL's answers -------------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {});
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const round2 = (n: number) => Math.round(n * 100) / 100;

const TITLES = new Map<number, string>([
  [400, "Bad request"],
  [401, "Unauthorized"],
  [404, "Not data found"],
  [422, "Validation error"],
  [429, "Too many requests"],
  [500, "Internal Server Error"],
  [503, "Service Unavailable"],
]);

function problem(status: number, instance: string, detail: string, additionalDetails?: string[]): EmulatorResponse {
  const title = TITLES.get(status) ?? "Error";
  return {
    status,
    headers: { "content-type": "application/problem+json" },
    body: {
      instance,
      detail,
      title,
      message: title,
      status: String(status),
      ...(additionalDetails ? { additionalDetails } : {}),
    },
  };
}

/** Several problems: DHL's "Multiple problems found, see Additional Details", one `code: text` line each. */
function problems(status: number, instance: string, lines: string[]): EmulatorResponse {
  return lines.length === 1
    ? problem(status, instance, lines[0]!)
    : problem(status, instance, "Multiple problems found, see Additional Details", lines);
}

// --- products and prices -------------------------------------------------------------------------------------------

interface Product {
  code: string;
  name: string;
  documents: boolean;
  factor: number;
  days: number;
}

const DOMESTIC: Product = { code: "N", name: "DOMESTIC EXPRESS", documents: false, factor: 0.6, days: 1 };
const INTERNATIONAL: Product[] = [
  { code: "P", name: "EXPRESS WORLDWIDE NONDOC", documents: false, factor: 1, days: 3 },
  { code: "Y", name: "EXPRESS 12:00 NONDOC", documents: false, factor: 1.35, days: 2 },
  { code: "E", name: "EXPRESS 9:00 NONDOC", documents: false, factor: 1.7, days: 2 },
  { code: "D", name: "EXPRESS WORLDWIDE DOC", documents: true, factor: 0.8, days: 3 },
  { code: "T", name: "EXPRESS 12:00 DOC", documents: true, factor: 1.1, days: 2 },
  { code: "K", name: "EXPRESS 9:00 DOC", documents: true, factor: 1.4, days: 2 },
];

const CURRENCIES = new Map([
  ["US", "USD"],
  ["CA", "CAD"],
  ["GB", "GBP"],
  ["AU", "AUD"],
  ["JP", "JPY"],
  ["SG", "SGD"],
  ["CH", "CHF"],
]);
const EURO = new Set(["AT", "BE", "DE", "ES", "FI", "FR", "GR", "IE", "IT", "LU", "NL", "PT", "SK", "SI"]);
const currencyOf = (country: string) => CURRENCIES.get(country) ?? (EURO.has(country) ? "EUR" : "USD");

/**
 * Lanes where the emulator's DHL does not take Paperless Trade (WY): a stand-in for DHL's lane capability, which its
 * rating lists per route. Shipments to them with WY are refused, unless `bypassPLTError` (spec: "Option to bypass PLT
 * - WY service code lane capability validation"), which ships them without it.
 */
const NO_PAPERLESS = new Set(["BR", "IN", "RU"]);

interface Route {
  origin: string;
  destination: string;
  international: boolean;
  /** Billable weight in kg. */
  kg: number;
  shipDate: string;
}

function addBusinessDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
  }
  return d.toISOString().slice(0, 10);
}

/**
 * `plannedShippingDateAndTime` as the spec describes it ("YYYY-MM-DDTHH:MM:SS GMT+01:00", the date "not in the past
 * or more than 10 days in the future" on the origin's calendar); the refusal's code is the emulator's.
 */
function checkPlannedDate(value: unknown, origin: Json, now: Date): { date: string } | { refusal: string } {
  const m = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}:\d{2} ?GMT[+-]\d{2}:\d{2}$/.exec(String(value ?? ""));
  if (!m)
    return {
      refusal: `998: plannedShippingDateAndTime ${String(value)} is not in the format YYYY-MM-DDTHH:MM:SS GMT+hh:mm`,
    };
  const zone = originTimeZone({
    country_code: String(origin.countryCode ?? ""),
    state_code: String(origin.provinceCode ?? ""),
    postal_code: String(origin.postalCode ?? ""),
  });
  const today = localClock(now, zone).date;
  const limit = new Date(`${today}T00:00:00Z`);
  limit.setUTCDate(limit.getUTCDate() + 10);
  if (m[1]! < today || m[1]! > limit.toISOString().slice(0, 10)) {
    return { refusal: `998: The planned shipping date ${m[1]} is in the past or more than 10 days in the future.` };
  }
  return { date: m[1]! };
}

function kgOf(packages: Json[], unit: unknown): number {
  const perUnit = unit === "imperial" ? 0.45359237 : 1;
  return packages.reduce((s, p) => s + (num(p.weight) ?? 0) * perUnit, 0);
}

/** A product's price on the route in one currency: base by weight, fuel surcharge 20 %, emergency situation 0.27. */
function priced(product: Product, route: Route, insured: number | null) {
  const base = round2((route.international ? 38 : 14) * product.factor + route.kg * (route.international ? 9.5 : 2.2));
  const fuel = round2(base * 0.2);
  const emergency = route.international ? 0.27 : 0;
  const insurance = insured !== null ? round2(Math.max(12, insured * 0.01)) : 0;
  return { base, fuel, emergency, insurance, total: round2(base + fuel + emergency + insurance) };
}

function breakdownOf(p: ReturnType<typeof priced>, productName: string) {
  return [
    { name: productName, price: p.base },
    ...(p.emergency
      ? [
          {
            name: "EMERGENCY SITUATION",
            serviceCode: "CR",
            localServiceCode: "CR",
            serviceTypeCode: "SCH",
            price: p.emergency,
          },
        ]
      : []),
    { name: "FUEL SURCHARGE", serviceCode: "FF", localServiceCode: "FF", serviceTypeCode: "SCH", price: p.fuel },
    ...(p.insurance
      ? [
          {
            name: "SHIPMENT INSURANCE",
            serviceCode: "II",
            localServiceCode: "II",
            serviceTypeCode: "XCH",
            price: p.insurance,
          },
        ]
      : []),
    // Offered on the route, not charged: listed without a price, as DHL lists them.
    { name: "SATURDAY DELIVERY", serviceCode: "AA", localServiceCode: "AA", serviceTypeCode: "XCH" },
  ];
}

function productsFor(route: Route, documentsOnly: boolean): Product[] {
  if (!route.international) return [DOMESTIC];
  return INTERNATIONAL.filter((p) => p.documents === documentsOnly);
}

const insuredValue = (services: unknown) => num(list(services).find((s) => s.serviceCode === "II")?.value);

// --- operations ----------------------------------------------------------------------------------------------------

function rate(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const body = obj(req.json);
  const details = obj(body.customerDetails);
  const shipper = obj(details.shipperDetails);
  const receiver = obj(details.receiverDetails);
  const planned = checkPlannedDate(body.plannedShippingDateAndTime, shipper, state.now());
  if ("refusal" in planned) return problem(400, "/expressapi/rates", planned.refusal);
  const packages = list(body.packages);
  const route: Route = {
    origin: String(shipper.countryCode),
    destination: String(receiver.countryCode),
    international: shipper.countryCode !== receiver.countryCode,
    kg: kgOf(packages, body.unitOfMeasurement),
    shipDate: planned.date,
  };
  // Documents cross undeclared; DHL's document products are the ones for a shipment that is not declarable.
  const products = productsFor(route, route.international && body.isCustomsDeclarable === false).filter(
    (p) => !text(body.productCode) || p.code === body.productCode,
  );
  if (products.length === 0) {
    return problem(
      400,
      "/expressapi/rates",
      `1001: The requested product(s) (${String(body.productCode)}) not available based on your search criteria.`,
    );
  }
  const currency = currencyOf(route.origin);
  const insured = insuredValue(body.valueAddedServices);
  return {
    status: 200,
    body: {
      products: products.map((product) => {
        const p = priced(product, route, insured);
        const base = priced(product, route, insured);
        const delivery = addBusinessDays(route.shipDate, product.days);
        return {
          productName: product.name,
          productCode: product.code,
          localProductCode: product.code,
          localProductCountryCode: route.origin,
          networkTypeCode: "TD",
          isCustomerAgreement: false,
          weight: { volumetric: 0, provided: round2(route.kg), unitOfMeasurement: "metric" },
          totalPrice: [
            { currencyType: "BILLC", priceCurrency: currency, price: p.total },
            { currencyType: "PULCL", priceCurrency: currency, price: p.total },
            // DHL's base currency, at a rate of its own: a price the shipper does not pay.
            { currencyType: "BASEC", priceCurrency: "EUR", price: round2(base.total * 0.92) },
          ],
          totalPriceBreakdown: [
            {
              currencyType: "BILLC",
              priceCurrency: currency,
              priceBreakdown: [
                { typeCode: "SPRQT", price: p.base },
                { typeCode: "STTXA", price: 0 },
              ],
            },
          ],
          detailedPriceBreakdown: [
            { currencyType: "BILLC", priceCurrency: currency, breakdown: breakdownOf(p, product.name) },
            {
              currencyType: "BASEC",
              priceCurrency: "EUR",
              breakdown: [{ name: product.name, price: round2(base.base * 0.92) }],
            },
          ],
          pickupCapabilities: {
            nextBusinessDay: false,
            localCutoffDateAndTime: `${route.shipDate}T18:00:00`,
            pickupEarliest: "09:00:00",
            pickupLatest: "18:00:00",
            originServiceAreaCode: "ORG",
            originFacilityAreaCode: "ORG",
            pickupAdditionalDays: 0,
            pickupDayOfWeek: new Date(`${route.shipDate}T00:00:00Z`).getUTCDay(),
          },
          deliveryCapabilities: {
            deliveryTypeCode: "QDDC",
            estimatedDeliveryDateAndTime: `${delivery}T23:59:00`,
            destinationServiceAreaCode: "DST",
            destinationFacilityAreaCode: "DST",
            deliveryAdditionalDays: 0,
            deliveryDayOfWeek: new Date(`${delivery}T00:00:00Z`).getUTCDay(),
            totalTransitDays: product.days,
          },
          pricingDate: route.shipDate,
        };
      }),
    },
  };
}

interface Sale {
  shipper: Json;
  receiver: Json;
}

function sales(state: CarrierState): Map<string, Sale> {
  let m = state.data.get("sales") as Map<string, Sale> | undefined;
  if (!m) state.data.set("sales", (m = new Map()));
  return m;
}

function nextSerial(state: CarrierState): number {
  const n = ((state.data.get("serial") as number | undefined) ?? Math.floor(Math.random() * 10)) + 1;
  state.data.set("serial", n);
  return n;
}

/** Our Address shape for the label renderer, from a MyDHL party. */
function addressOf(party: Json): Address {
  const a = obj(party.postalAddress);
  const c = obj(party.contactInformation);
  return {
    person_name: text(c.fullName),
    company_name: text(c.companyName),
    address_line1: String(a.addressLine1 ?? ""),
    address_line2: text(a.addressLine2),
    city: String(a.cityName ?? ""),
    postal_code: String(a.postalCode ?? ""),
    state_code: String(a.provinceCode ?? ""),
    country_code: String(a.countryCode ?? ""),
    suburb: null,
    residential: false,
    email: null,
    phone_number: text(c.phone),
    federal_tax_id: null,
    state_tax_id: null,
  };
}

async function render(content: LabelContent, type: LabelType): Promise<string> {
  const bytes = type === "PDF" ? await renderPdfLabel(content) : new TextEncoder().encode(renderZplLabel(content));
  return Buffer.from(bytes).toString("base64");
}

const ENCODINGS = new Map<string, LabelType>([
  ["pdf", "PDF"],
  ["zpl", "ZPL"],
]);

async function ship(req: EmulatorRequest, state: CarrierState): Promise<EmulatorResponse> {
  const instance = "/expressapi/shipments";
  const body = obj(req.json);
  const details = obj(body.customerDetails);
  const shipper = obj(details.shipperDetails);
  const receiver = obj(details.receiverDetails);
  const origin = obj(shipper.postalAddress);
  const destination = obj(receiver.postalAddress);
  const planned = checkPlannedDate(body.plannedShippingDateAndTime, origin, state.now());
  if ("refusal" in planned) return problem(400, instance, planned.refusal);
  const content = obj(body.content);
  const packages = list(content.packages);
  const route: Route = {
    origin: String(origin.countryCode),
    destination: String(destination.countryCode),
    international: origin.countryCode !== destination.countryCode,
    kg: kgOf(packages, content.unitOfMeasurement),
    shipDate: planned.date,
  };
  const refusals: string[] = [];
  const product = productsFor(route, route.international && content.isCustomsDeclarable === false).find(
    (p) => p.code === body.productCode,
  );
  if (!product) {
    refusals.push(
      `1001: The requested product(s) (${String(body.productCode)}) not available based on your search criteria.`,
    );
  }
  // Spec, content.exportDeclaration: "Here you can declare your export declaration details" — required by DHL for a
  // declarable shipment (its sample error 7120 asks for the invoice data or document images); the code is DHL's.
  const declaration = obj(content.exportDeclaration);
  if (content.isCustomsDeclarable === true && list(declaration.lineItems).length === 0) {
    refusals.push("7120: Required either #/content/exportDeclaration or provide #/documentImages");
  }
  if (
    content.isCustomsDeclarable === true &&
    (num(content.declaredValue) === null || !text(content.declaredValueCurrency))
  ) {
    refusals.push(
      "7121: #/content/declaredValue and #/content/declaredValueCurrency are required for a declarable shipment",
    );
  }
  const services = list(body.valueAddedServices);
  let paperless = services.some((s) => s.serviceCode === "WY");
  if (paperless && NO_PAPERLESS.has(route.destination)) {
    if (req.query.get("bypassPLTError") === "true") paperless = false;
    else {
      refusals.push(
        `7008: The requested Special Service Code  #/valueAddedServices/0/serviceCode 'WY' is not available between this origin and destination.`,
      );
    }
  }
  if (refusals.length > 0) return problems(400, instance, refusals);

  const image = obj(body.outputImageProperties);
  const type = ENCODINGS.get(String(image.encodingFormat ?? "pdf")) ?? "PDF";
  const options = list(image.imageOptions);
  const asked = (code: string) => options.some((o) => o.typeCode === code && o.isRequested === true);
  const number = dhlEmulatorNumber({ soldAt: state.now(), serial: nextSerial(state) });
  sales(state).set(number, { shipper, receiver });
  const reference = text(list(body.customerReferences)[0]?.value);
  const label = (serviceName: string): LabelContent => ({
    carrierName: "DHL Express",
    serviceName,
    trackingNumber: number,
    shipper: addressOf(shipper),
    recipient: addressOf(receiver),
    weightText: `${packages.length} piece(s), ${round2(route.kg)} KG`,
    reference,
    shipDate: route.shipDate,
    barcodeValue: number,
    footerText: "DHL EXPRESS EMULATOR - NOT VALID FOR SHIPPING",
  });
  const pieces = packages.map((_, i) => `JD0146${number}${String(i + 1).padStart(4, "0")}`);
  const documents = [
    // One transport label per piece, each its own document (as DHL splits them with `packageReferenceNumber`).
    ...(await Promise.all(
      pieces.map(async (_, i) => ({
        imageFormat: type,
        content: await render(label(`${product!.name} ${i + 1}/${pieces.length}`), type),
        typeCode: "label",
        packageReferenceNumber: i + 1,
      })),
    )),
    ...(asked("waybillDoc")
      ? [{ imageFormat: type, content: await render(label("WAYBILL DOC"), type), typeCode: "waybillDoc" }]
      : []),
    ...(asked("invoice") && content.isCustomsDeclarable === true
      ? [
          {
            imageFormat: "PDF",
            content: await render(label(paperless ? "COMMERCIAL INVOICE (PLT)" : "COMMERCIAL INVOICE"), "PDF"),
            typeCode: "invoice",
          },
        ]
      : []),
  ];
  const price = priced(product!, route, insuredValue(services));
  const currency = currencyOf(route.origin);
  const delivery = addBusinessDays(route.shipDate, product!.days);
  const taken = services
    .filter((s) => s.serviceCode !== "WY" || paperless)
    .map((s) => ({ serviceCode: String(s.serviceCode) }));
  return {
    status: 201,
    body: {
      url: `https://express.api.dhl.com/mydhlapi/shipments/${number}/tracking`,
      shipmentTrackingNumber: number,
      trackingUrl: `https://express.api.dhl.com/mydhlapi/shipments/${number}/tracking`,
      packages: pieces.map((trackingNumber, i) => ({ referenceNumber: i + 1, trackingNumber })),
      documents,
      shipmentDetails: [
        {
          serviceHandlingFeatureCodes: [],
          volumetricWeight: 0,
          billingCode: "IMP",
          serviceContentCode: product!.code,
          originServiceArea: { facilityCode: "ORG", serviceAreaCode: "ORG" },
          destinationServiceArea: { facilityCode: "DST", serviceAreaCode: "DST" },
          productShortName: product!.name,
          // The services it took, listed whenever some were asked for (an empty list: none was taken).
          ...(services.length > 0 ? { valueAddedServices: taken } : {}),
          pickupDetails: { totalTransitDays: String(product!.days) },
        },
      ],
      ...(body.getRateEstimates === true
        ? {
            shipmentCharges: [
              {
                currencyType: "BILLC",
                priceCurrency: currency,
                price: price.total,
                serviceBreakdown: breakdownOf(price, product!.name)
                  .filter((b) => b.price !== undefined)
                  .map((b) => ({
                    name: b.name,
                    price: b.price!,
                    ...(b.serviceCode ? { typeCode: b.serviceCode } : {}),
                  })),
              },
            ],
          }
        : {}),
      estimatedDeliveryDate: { estimatedDeliveryDate: delivery, estimatedDeliveryType: "QDDC" },
    },
  };
}

interface Step {
  hours: number;
  code: string;
  description: string;
  /** Where: the origin's service area, or the destination's. */
  at: "origin" | "destination";
}

const DELIVERED: Step[] = [
  { hours: 2, code: "PU", description: "Shipment picked up", at: "origin" },
  { hours: 4, code: "AF", description: "Arrived at DHL Sort Facility", at: "origin" },
  { hours: 5, code: "PL", description: "Processed at", at: "origin" },
  { hours: 7, code: "DF", description: "Shipment has departed from a DHL facility", at: "origin" },
  { hours: 20, code: "AF", description: "Arrived at DHL Sort Facility", at: "destination" },
  { hours: 22, code: "CR", description: "Clearance processing complete", at: "destination" },
  { hours: 26, code: "AR", description: "Arrived at DHL Delivery Facility", at: "destination" },
  { hours: 30, code: "WC", description: "Shipment is out with courier for delivery", at: "destination" },
  { hours: 34, code: "OK", description: "Delivered", at: "destination" },
];
const JOURNEYS = new Map<number, Step[]>([
  [0, DELIVERED],
  // Held by customs at the destination, for good.
  [1, [...DELIVERED.slice(0, 5), { hours: 22, code: "OH", description: "Shipment on hold", at: "destination" }]],
  // Nobody home at the first attempt.
  [2, [...DELIVERED.slice(0, 8), { hours: 34, code: "NH", description: "Consignee not home", at: "destination" }]],
]);

const SERVICE_AREA = new Map([
  ["US", { code: "CHI", description: "CHICAGO, IL-US" }],
  ["GB", { code: "LON", description: "LONDON-GB" }],
  ["DE", { code: "LEJ", description: "LEIPZIG-DE" }],
  ["CA", { code: "YTO", description: "TORONTO-CA" }],
  ["FR", { code: "PAR", description: "PARIS-FR" }],
]);
const areaOf = (country: string) => SERVICE_AREA.get(country) ?? { code: "HUB", description: `HUB-${country}` };

function track(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const number = decodeURIComponent(req.path.split("/")[2] ?? "");
  const parts = parseNumber(number);
  const now = state.now();
  const instance = `/expressapi/shipments/${number}/tracking`;
  if (!parts || parts.scenario === 9 || parts.soldAt.getTime() > now.getTime() || !JOURNEYS.has(parts.scenario)) {
    return problem(404, instance, "No data found");
  }
  const sale = sales(state).get(number);
  const origin = String(obj(obj(sale?.shipper).postalAddress).countryCode ?? "US");
  const destination = String(obj(obj(sale?.receiver).postalAddress).countryCode ?? "GB");
  const hours = (now.getTime() - parts.soldAt.getTime()) / HOUR;
  const withOffset = req.query.get("requestGMTOffsetPerEvent") === "true";
  const events = JOURNEYS.get(parts.scenario)!
    .filter((s) => s.hours <= hours)
    .map((s) => {
      const at = new Date(parts.soldAt.getTime() + s.hours * HOUR).toISOString();
      const area = areaOf(s.at === "origin" ? origin : destination);
      return {
        date: at.slice(0, 10),
        time: at.slice(11, 19),
        ...(withOffset ? { GMTOffset: "+00:00" } : {}),
        typeCode: s.code,
        description: s.code === "OK" ? s.description : `${s.description} - ${area.description}`,
        serviceArea: [area],
        ...(s.code === "OK" ? { signedBy: "RECEPTION" } : {}),
      };
    });
  const estimated = new Date(parts.soldAt.getTime() + 34 * HOUR).toISOString().slice(0, 10);
  return {
    status: 200,
    body: {
      shipments: [
        {
          shipmentTrackingNumber: number,
          status: "Success",
          shipmentTimestamp: parts.soldAt.toISOString().slice(0, 19),
          productCode: "P",
          description: "Shipment",
          shipperDetails: { name: "", postalAddress: { countryCode: origin }, serviceArea: [areaOf(origin)] },
          receiverDetails: {
            name: "",
            postalAddress: { countryCode: destination },
            serviceArea: [areaOf(destination)],
          },
          numberOfPieces: 1,
          events,
          ...(events.some((e) => e.typeCode === "OK") ? {} : { estimatedDeliveryDate: estimated }),
        },
      ],
    },
  };
}

/** MyDHL's HTTP Basic: any username with a password; "invalid" is the emulator's refused password. */
function authorize(headers: IncomingMessage["headers"]): boolean {
  const encoded = /^Basic (.+)$/i.exec(headers.authorization ?? "")?.[1];
  if (!encoded) return false;
  const [user, password] = Buffer.from(encoded, "base64").toString("utf8").split(":");
  return !!user && !!password && password !== "invalid";
}

/** DHL's one file (where it says what it does not mean: specs/dhl_express/errata.json, empty so far). */
const DHL_CONTRACT: CarrierContract = {
  files: ["dhl_express/dpdhl-express-api-3.1.1_swagger.yaml"],
  basePath: "/mydhlapi",
  refuse: (found) =>
    problems(
      400,
      "/expressapi",
      found.map((p) => `998: ${problemText(p)}`),
    ),
};

export const dhlExpressEmulator: EmulatedCarrier = {
  name: "dhl_express",
  contract: DHL_CONTRACT,
  tokenTtlSeconds: 0,
  authorize,
  operationOf(method: string, path: string): Operation | null {
    if (method === "POST" && path === "/rates") return "rate";
    if (method === "POST" && path === "/shipments") return "ship";
    if (method === "GET" && /^\/shipments\/[^/]+\/tracking$/.test(path)) return "track";
    if (method === "GET" && path === "/address-validate") return "address_validation";
    return null;
  },
  handle(req, state) {
    const operation = this.operationOf(req.method, req.path);
    if (operation === "address_validation") return dhlAddressValidate(req);
    if (operation !== "track" && req.json === null)
      return problem(400, "/expressapi", "998: The request body is not JSON");
    switch (operation) {
      case "rate":
        return rate(req, state);
      case "ship":
        return ship(req, state);
      default:
        return track(req, state);
    }
  },
  errorBody(status: number, _code: string, message: string) {
    const title = TITLES.get(status) ?? message;
    return { instance: "/expressapi", detail: message, title, message: title, status: String(status) };
  },
};
