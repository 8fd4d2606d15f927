import { randomUUID } from "node:crypto";
import type { Address, LabelType } from "@/lib/carriers/types";
import type { LabelContent } from "@/lib/labels/content";
import { renderPdfLabel } from "@/lib/labels/pdf";
import { renderPngLabel } from "@/lib/labels/png";
import { renderZplLabel } from "@/lib/labels/zpl";
import { localClock, originTimeZone } from "@/lib/carriers/ship-date";
import { problemText } from "./contract";
import { resolvedAddress, resolveProblems } from "./fedex-address";
import type {
  CarrierContract,
  CarrierState,
  EmulatedCarrier,
  EmulatorRequest,
  EmulatorResponse,
  Operation,
} from "./server";

/**
 * FedEx as its REST APIs answer (developer.fedex.com; shapes checked against the vendored rate-api.json,
 * ship-api.json, track.json and address-validation.json): `POST /oauth/token` (form body), `POST /rate/v1/rates/quotes`,
 * `POST /ship/v1/shipments`, `PUT /ship/v1/shipments/cancel`, `POST /track/v1/trackingnumbers` (up to 30 numbers),
 * `POST /address/v1/addresses/resolve` (up to 100 addresses; fedex-address.ts).
 * Refusals are FedEx's `{transactionId, errors: [{code, message}]}`; a number it does not know is that number's
 * `error` inside a 200.
 *
 * It sells real labels (PDF, PNG, ZPLII) under 12-digit FedEx Express numbers with their mod-11 check digit,
 * remembers them (for cancel, and for tracking with the shipment's own places), and tracks any well-formed number
 * along a journey timed from the sale — the number carries its sale hour and a scenario digit, like the sandbox's:
 * `7 HHHHH SSSS D C` (hours since 2024-01-01 UTC, serial, scenario, check digit). Scenario 9, a bad check digit or a
 * sale in the future is not found: `fedexEmulatorNumber({ scenario: 9 })` is the recognisable unknown number.
 *
 * Where FedEx publishes no code for a refusal the emulator needs (a cancel of a cancelled shipment, a cancel after
 * pickup, more than 30 numbers), the codes below are the emulator's, in FedEx's style; docs/fedex.md says which.
 */

const EPOCH = Date.UTC(2024, 0, 1);
const HOUR = 3_600_000;

// --- tracking numbers ------------------------------------------------------------------------------------------------

/** FedEx Express check digit: the first 11 digits weighted 3, 1, 7, 3, 1, 7, …; sum mod 11, mod 10. */
export function fedexExpressCheckDigit(first11: string): number {
  const weights = [3, 1, 7];
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(first11[i]) * weights[i % 3]!;
  return (sum % 11) % 10;
}

/** A number the emulator tracks: sold at `soldAt` (to the hour), with a serial and a scenario digit. */
export function fedexEmulatorNumber(opts: { soldAt?: Date; serial?: number; scenario?: number } = {}): string {
  const hours = Math.floor(((opts.soldAt ?? new Date()).getTime() - EPOCH) / HOUR);
  const data = `7${String(hours).padStart(5, "0")}${String((opts.serial ?? 0) % 10_000).padStart(4, "0")}${opts.scenario ?? 0}`;
  return data + fedexExpressCheckDigit(data);
}

interface NumberParts {
  soldAt: Date;
  serial: number;
  scenario: number;
}

function parseNumber(n: string): NumberParts | null {
  if (!/^7\d{11}$/.test(n) || fedexExpressCheckDigit(n) !== Number(n[11])) return null;
  return {
    soldAt: new Date(EPOCH + Number(n.slice(1, 6)) * HOUR),
    serial: Number(n.slice(6, 10)),
    scenario: Number(n[10]),
  };
}

// --- FedEx's answers -----------------------------------------------------------------------------------------------

interface Problem {
  code: string;
  message: string;
  field?: string;
}

const json = (status: number, body: unknown): EmulatorResponse => ({ status, body });

function refuse(status: number, problems: Problem[]): EmulatorResponse {
  return json(status, {
    transactionId: randomUUID(),
    errors: problems.map((p) => ({
      code: p.code,
      message: p.message,
      ...(p.field ? { parameterList: [{ key: "field", value: p.field }] } : {}),
    })),
  });
}

const ERROR_CODES = new Map<number, [string, string]>([
  [400, ["INVALID.INPUT.EXCEPTION", "Invalid field value in the input"]],
  [401, ["NOT.AUTHORIZED.ERROR", "Access token expired. Please modify your request and try again."]],
  [403, ["FORBIDDEN.ERROR", "We could not authorize your credentials. Please check your permissions and try again."]],
  [
    404,
    ["NOT.FOUND.ERROR", "The resource you requested is no longer available. Please modify your request and try again."],
  ],
  [
    429,
    [
      "TOO.MANY.REQUESTS.ERROR",
      "We have received too many requests in a short duration. Please wait a while to try again.",
    ],
  ],
  [
    500,
    [
      "INTERNAL.SERVER.ERROR",
      "We encountered an unexpected error and are working to resolve the issue. We apologize for any inconvenience. Please check back at a later time.",
    ],
  ],
  [
    503,
    [
      "SERVICE.UNAVAILABLE.ERROR",
      "The service is currently unavailable and we are working to resolve the issue. We apologize for any inconvenience. Please check back at a later time.",
    ],
  ],
]);

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {});
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Collects what a request lacks, in FedEx's validation answer: every problem at once. */
class Checks {
  readonly problems: Problem[] = [];
  require(ok: boolean, field: string, code = "INVALID.INPUT.EXCEPTION", message?: string): boolean {
    if (!ok) this.problems.push({ code, message: message ?? `Invalid field value in the input: ${field}`, field });
    return ok;
  }
  answer(): EmulatorResponse | null {
    return this.problems.length > 0 ? refuse(400, this.problems) : null;
  }
}

// --- services and prices -------------------------------------------------------------------------------------------

interface Service {
  code: string;
  name: string;
  days: number;
  flat: number;
  perLb: number;
  international: boolean;
  ground: boolean;
}

const SERVICES: Service[] = [
  { code: "FEDEX_GROUND", name: "FedEx Ground", days: 5, flat: 9.5, perLb: 0.55, international: false, ground: true },
  // Quoted only to a request that names its SmartPost hub (smartPostInfoDetail), as FedEx does for such accounts.
  {
    code: "SMART_POST",
    name: "FedEx Ground Economy",
    days: 7,
    flat: 7.9,
    perLb: 0.45,
    international: false,
    ground: true,
  },
  {
    code: "GROUND_HOME_DELIVERY",
    name: "FedEx Home Delivery",
    days: 5,
    flat: 9.9,
    perLb: 0.55,
    international: false,
    ground: true,
  },
  {
    code: "FEDEX_EXPRESS_SAVER",
    name: "FedEx Express Saver",
    days: 3,
    flat: 21,
    perLb: 1.1,
    international: false,
    ground: false,
  },
  { code: "FEDEX_2_DAY", name: "FedEx 2Day", days: 2, flat: 26, perLb: 1.45, international: false, ground: false },
  {
    code: "STANDARD_OVERNIGHT",
    name: "FedEx Standard Overnight",
    days: 1,
    flat: 45,
    perLb: 2.3,
    international: false,
    ground: false,
  },
  {
    code: "PRIORITY_OVERNIGHT",
    name: "FedEx Priority Overnight",
    days: 1,
    flat: 55,
    perLb: 2.6,
    international: false,
    ground: false,
  },
  {
    code: "INTERNATIONAL_ECONOMY",
    name: "FedEx International Economy",
    days: 5,
    flat: 62,
    perLb: 3.1,
    international: true,
    ground: false,
  },
  {
    code: "FEDEX_INTERNATIONAL_PRIORITY",
    name: "FedEx International Priority",
    days: 3,
    flat: 78,
    perLb: 3.9,
    international: true,
    ground: false,
  },
];
const SERVICE_BY_CODE = new Map(SERVICES.map((s) => [s.code, s]));

/**
 * The services FedEx offers on a route: Home Delivery to homes and Ground to businesses, inside one country, and
 * Ground Economy where the request names a SmartPost hub.
 */
function servicesOn(international: boolean, residential: boolean, smartPost = false): Service[] {
  return SERVICES.filter(
    (s) =>
      s.international === international &&
      !(residential && s.code === "FEDEX_GROUND") &&
      !(!residential && s.code === "GROUND_HOME_DELIVERY") &&
      (smartPost || s.code !== "SMART_POST"),
  );
}

const SMART_POST_INDICIA = new Set([
  "MEDIA_MAIL",
  "PARCEL_RETURN",
  "PARCEL_SELECT",
  "PRESORTED_BOUND_PRINTED_MATTER",
  "PRESORTED_STANDARD",
]);
const B13A_OPTIONS = new Set(["NOT_REQUIRED", "MANUALLY_ATTACHED", "FILED_ELECTRONICALLY", "SUMMARY_REPORTING", "FEDEX_TO_STAMP"]); // prettier-ignore

/** SmartPostInfoDetail's `hubId` (four digits) and `indicia` are required whenever the detail is sent (ship-api.json). */
function checkSmartPost(c: Checks, detail: unknown, at: string): boolean {
  if (detail === undefined) return false;
  const d = obj(detail);
  c.require(/^\d{4}$/.test(String(d.hubId ?? "")), `${at}.hubId`);
  c.require(SMART_POST_INDICIA.has(String(d.indicia)), `${at}.indicia`);
  return true;
}

/**
 * What ship-api.json requires in prose only, checked as FedEx would. The codes are the emulator's own (FedEx
 * publishes none for these), in FedEx's error shape.
 */
function checkConditional(c: Checks, shipment: Json, route: Route, packages: Json[]): void {
  const from = String(route.origin.countryCode);
  const to = String(route.destination.countryCode);
  // SmartPostInfoDetail.description: "Required for SMARTPOST service."
  if (shipment.serviceType === "SMART_POST") {
    c.require(
      shipment.smartPostInfoDetail !== undefined,
      "requestedShipment.smartPostInfoDetail",
      "SMARTPOSTDETAIL.REQUIRED",
      "SmartPost detail (hubId and indicia) is required for FedEx Ground Economy.",
    );
  }
  // RequestedPackageLineItem.subPackagingType: "subPackagingType is mandatory for shipments to Canada."
  if (to === "CA") {
    packages.forEach((p, i) =>
      c.require(
        !!text(p.subPackagingType),
        `requestedShipment.requestedPackageLineItems[${i}].subPackagingType`,
        "SUBPACKAGINGTYPE.REQUIRED",
        "subPackagingType is mandatory for shipments to Canada.",
      ),
    );
  }
  // ExportDetail.b13AFilingOption: "Required for non-document shipments originating in Canada destinated for any
  // country other than Canada, the United States, Puerto Rico, or the U.S. Virgin Islands."
  const customs = obj(shipment.customsClearanceDetail);
  if (from === "CA" && !["CA", "US", "PR", "VI"].includes(to) && customs.isDocumentOnly !== true) {
    c.require(
      B13A_OPTIONS.has(String(obj(customs.exportDetail).b13AFilingOption)),
      "requestedShipment.customsClearanceDetail.exportDetail.b13AFilingOption",
      "B13AFILINGOPTION.REQUIRED",
      "The B13A filing option is required for shipments from Canada to this destination.",
    );
  }
}

const WORDS = ["ONE_DAY", "TWO_DAYS", "THREE_DAYS", "FOUR_DAYS", "FIVE_DAYS", "SIX_DAYS", "SEVEN_DAYS"];
const DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];
const CURRENCIES = new Map([
  ["US", "USD"],
  ["CA", "CAD"],
  ["GB", "GBP"],
  ["DE", "EUR"],
  ["FR", "EUR"],
  ["NL", "EUR"],
  ["MX", "MXN"],
]);

function addBusinessDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
  }
  return d.toISOString().slice(0, 10);
}

interface Route {
  origin: Json;
  destination: Json;
  international: boolean;
  residential: boolean;
  weightLb: number;
  currency: string;
  zone: number;
  shipDate: string;
}

const EU = new Set(["AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT", "LT", "LU", "LV", "MC", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK"]); // prettier-ignore
const US_TERRITORY = new Set(["US", "PR"]);

/** The shipper's today, `YYYY-MM-DD`: FedEx reads ship dates "based on the shipper's time zone" (rate-api.json). */
function originToday(origin: Json, now: Date): string {
  const zone = originTimeZone({
    country_code: String(origin.countryCode ?? ""),
    state_code: String(origin.stateOrProvinceCode ?? ""),
    postal_code: String(origin.postalCode ?? ""),
  });
  return localClock(now, zone).date;
}

const daysAfter = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

function routeOf(shipper: Json, recipient: Json, packages: Json[], shipDate: string | null, now: Date): Route {
  const origin = obj(shipper.address);
  const destination = obj(recipient.address);
  const weightLb = packages.reduce((sum, p) => {
    const w = obj(p.weight);
    const value = num(w.value) ?? 0;
    return sum + (w.units === "KG" ? value / 0.45359237 : value);
  }, 0);
  const digit = (a: Json) => Number(String(a.postalCode ?? "0").replace(/\D/g, "")[0] ?? 0);
  const from = String(origin.countryCode);
  const to = String(destination.countryCode);
  const today = originToday(origin, now);
  // One customs territory: inside the EU (and US–PR) FedEx ships without a declaration.
  const international =
    from !== to && !(EU.has(from) && EU.has(to)) && !(US_TERRITORY.has(from) && US_TERRITORY.has(to));
  return {
    origin,
    destination,
    international,
    residential: destination.residential === true,
    weightLb: Math.max(1, weightLb),
    currency: CURRENCIES.get(String(origin.countryCode)) ?? "USD",
    zone: international ? 9 : 2 + Math.abs(digit(origin) - digit(destination)),
    // ship-api.json (shipDatestamp): "Default value is current date in case the date is not provided or a past date
    // is provided."
    shipDate: shipDate && /^\d{4}-\d{2}-\d{2}$/.test(shipDate) && shipDate >= today ? shipDate : today,
  };
}

/** One rate type's figures, as FedEx itemises them: base, discount, surcharges, net. */
function priced(service: Service, route: Route, account: boolean, options: OptionSurcharges = NO_OPTIONS) {
  // One Rate: a price by packaging, whatever the weight (FedEx One Rate); the emulator prices it as one pound.
  if (options.oneRate) route = { ...route, weightLb: 1 };
  const list = round2(service.flat + service.perLb * route.weightLb * (1 + route.zone * 0.08));
  const discount = account ? round2(list * 0.12) : 0;
  const fuelPercent = service.ground ? 12.5 : 14.75;
  const surcharges = [
    {
      type: "FUEL",
      description: "Fuel Surcharge",
      level: "PACKAGE",
      amount: round2((list - discount) * (fuelPercent / 100)),
    },
    ...(route.residential && service.code !== "GROUND_HOME_DELIVERY"
      ? [
          {
            type: "RESIDENTIAL_DELIVERY",
            description: "Residential delivery surcharge",
            level: "PACKAGE",
            amount: 5.95,
          },
        ]
      : []),
    ...options.surcharges(service),
  ];
  const totalSurcharges = round2(surcharges.reduce((s, c) => s + c.amount, 0));
  return { list, discount, fuelPercent, surcharges, totalSurcharges, net: round2(list - discount + totalSurcharges) };
}

interface OptionSurcharges {
  oneRate: boolean;
  surcharges: (service: Service) => { type: string; description: string; level: string; amount: number }[];
}
const NO_OPTIONS: OptionSurcharges = { oneRate: false, surcharges: () => [] };

/**
 * The special services and declared values a request asks for, checked where ship-api.json and rate-api.json say it
 * in prose, and priced (a surcharge each) so a test sees they arrived:
 * - a package's `signatureOptionType` needs SIGNATURE_OPTION in its `specialServiceTypes` ("If the shipper is
 *   requesting a special service which requires additional data …, the special service type must be present in the
 *   specialServiceTypes collection": PackageSpecialServicesRequested, ShipmentSpecialServicesRequested);
 * - `declaredValue` with an amount above 0 and its currency;
 * - FEDEX_ONE_RATE only with FedEx packaging, SATURDAY_DELIVERY only with an Express service when one service is
 *   named (FedEx's service guide; the codes ONERATE.PACKAGING.INVALID and SATURDAYDELIVERY.NOT.AVAILABLE are the
 *   emulator's own, the specs list none for this).
 */
function optionSurcharges(c: Checks, shipment: Json, packages: Json[], named: Service | undefined): OptionSurcharges {
  const types = obj(shipment.shipmentSpecialServices).specialServiceTypes;
  const asked = new Set(Array.isArray(types) ? types.map(String) : []);
  const at = "requestedShipment";
  let perPackage = 0;
  const packageCharges: { type: string; description: string; level: string; amount: number }[] = [];
  packages.forEach((p, i) => {
    const special = obj(p.packageSpecialServices);
    const signature = special.signatureOptionType;
    if (signature !== undefined) {
      const listed =
        Array.isArray(special.specialServiceTypes) && special.specialServiceTypes.includes("SIGNATURE_OPTION");
      c.require(listed, `${at}.requestedPackageLineItems[${i}].packageSpecialServices.specialServiceTypes`);
      if (signature === "DIRECT" || signature === "ADULT" || signature === "INDIRECT") {
        packageCharges.push({
          type: "SIGNATURE_OPTION",
          description: `${signature === "ADULT" ? "Adult" : "Direct"} signature required`,
          level: "PACKAGE",
          amount: signature === "ADULT" ? 7.75 : 6.5,
        });
      }
    }
    if (p.declaredValue !== undefined) {
      const dv = obj(p.declaredValue);
      const amount = num(dv.amount);
      c.require(amount !== null && amount > 0, `${at}.requestedPackageLineItems[${i}].declaredValue.amount`);
      c.require(
        /^[A-Z]{3}$/.test(String(dv.currency ?? "")),
        `${at}.requestedPackageLineItems[${i}].declaredValue.currency`,
      );
      // The first 100 is FedEx's own liability; each further 100 (or part) is charged.
      perPackage = Math.max(0, Math.ceil(((amount ?? 0) - 100) / 100));
      if (perPackage > 0) {
        packageCharges.push({
          type: "DECLARED_VALUE",
          description: "Declared value",
          level: "PACKAGE",
          amount: round2(perPackage * 1.4),
        });
      }
    }
  });
  const oneRate = asked.has("FEDEX_ONE_RATE");
  if (oneRate) {
    c.require(
      String(shipment.packagingType ?? "YOUR_PACKAGING") !== "YOUR_PACKAGING",
      `${at}.packagingType`,
      "ONERATE.PACKAGING.INVALID",
      "FedEx One Rate needs FedEx packaging.",
    );
  }
  const saturday = asked.has("SATURDAY_DELIVERY");
  if (saturday && named) {
    c.require(
      !named.ground,
      `${at}.shipmentSpecialServices.specialServiceTypes`,
      "SATURDAYDELIVERY.NOT.AVAILABLE",
      `Saturday delivery is not available for ${named.name}.`,
    );
  }
  return {
    oneRate,
    surcharges: (service) => [
      ...packageCharges,
      ...(saturday && !service.ground
        ? [{ type: "SATURDAY_DELIVERY", description: "Saturday delivery", level: "SHIPMENT", amount: 16 }]
        : []),
    ],
  };
}

function rateReplyDetail(service: Service, route: Route, rateTypes: Set<string>, options: OptionSurcharges) {
  const delivery = addBusinessDays(route.shipDate, service.days);
  const details = ["ACCOUNT", "LIST"]
    .filter((t) => rateTypes.has(t) || (t === "ACCOUNT" && rateTypes.size === 0))
    .map((rateType) => {
      const p = priced(service, route, rateType === "ACCOUNT", options);
      return {
        rateType,
        ratedWeightMethod: "ACTUAL",
        totalDiscounts: p.discount,
        totalBaseCharge: p.list,
        totalNetCharge: p.net,
        totalNetFedExCharge: p.net,
        shipmentRateDetail: {
          rateZone: String(route.zone),
          dimDivisor: 139,
          fuelSurchargePercent: p.fuelPercent,
          totalSurcharges: p.totalSurcharges,
          totalFreightDiscount: p.discount,
          surCharges: p.surcharges,
          ...(options.oneRate ? { specialRatingApplied: ["FEDEX_ONE_RATE"] } : {}),
          totalBillingWeight: { units: "LB", value: Math.ceil(route.weightLb) },
          currency: route.currency,
        },
        currency: route.currency,
      };
    });
  const weekday = DAYS[new Date(`${delivery}T00:00:00Z`).getUTCDay()]!;
  return {
    serviceType: service.code,
    serviceName: service.name,
    packagingType: "YOUR_PACKAGING",
    ratedShipmentDetails: details,
    operationalDetail: service.ground
      ? { transitTime: WORDS[service.days - 1], ineligibleForMoneyBackGuarantee: false }
      : {
          deliveryDate: `${delivery}T${service.days === 1 ? "10:30:00" : "20:00:00"}`,
          deliveryDay: weekday,
          commitDays: [weekday],
        },
    commit: service.ground
      ? { transitDays: { minimumTransitTime: WORDS[service.days - 1], description: `${service.days} Business Days` } }
      : { dateDetail: { dayOfWeek: weekday, dayFormat: `${delivery}T20:00:00` } },
  };
}

// --- validation ----------------------------------------------------------------------------------------------------

const PICKUP_TYPES = new Set(["DROPOFF_AT_FEDEX_LOCATION", "USE_SCHEDULED_PICKUP", "CONTACT_FEDEX_TO_SCHEDULE"]);
const IMAGE_TYPES = new Map<string, LabelType>([
  ["PDF", "PDF"],
  ["PNG", "PNG"],
  ["ZPLII", "ZPL"],
]);
const STOCK_TYPES = new Set([
  "PAPER_4X6",
  "PAPER_4X675",
  "PAPER_LETTER",
  "STOCK_4X6",
  "PAPER_4X8",
  "STOCK_4X8",
  "STOCK_4X675",
]);
const PAYMENT_TYPES = new Set(["SENDER", "RECIPIENT", "THIRD_PARTY", "COLLECT"]);

function checkAddress(c: Checks, a: Json, at: string, full: boolean): void {
  c.require(/^[A-Z]{2}$/.test(String(a.countryCode ?? "")), `${at}.countryCode`);
  c.require(!!text(a.postalCode), `${at}.postalCode`);
  if (!full) return;
  const lines = Array.isArray(a.streetLines) ? a.streetLines : [];
  c.require(lines.length > 0 && lines.every((l) => !!text(l) && String(l).length <= 35), `${at}.streetLines`);
  c.require(!!text(a.city), `${at}.city`);
  if (a.countryCode === "US" || a.countryCode === "CA")
    c.require(!!text(a.stateOrProvinceCode), `${at}.stateOrProvinceCode`);
}

function checkPackages(c: Checks, packages: unknown, at: string): Json[] {
  const items = list(packages);
  if (!c.require(items.length > 0, at)) return [];
  items.forEach((p, i) => {
    const w = obj(p.weight);
    c.require(w.units === "LB" || w.units === "KG", `${at}[${i}].weight.units`);
    c.require((num(w.value) ?? 0) > 0, `${at}[${i}].weight.value`);
    if (p.dimensions !== undefined) {
      const d = obj(p.dimensions);
      for (const k of ["length", "width", "height"])
        c.require(Number.isInteger(d[k]) && (d[k] as number) > 0, `${at}[${i}].dimensions.${k}`);
    }
  });
  return items;
}

function checkCustoms(c: Checks, detail: unknown, at: string): Json | null {
  if (
    !c.require(
      detail !== undefined,
      at,
      "CUSTOMSCLEARANCEDETAIL.REQUIRED",
      "Customs clearance detail is required for international shipments.",
    )
  ) {
    return null;
  }
  const d = obj(detail);
  const commodities = list(d.commodities);
  c.require(commodities.length > 0, `${at}.commodities`);
  commodities.forEach((item, i) => {
    const p = `${at}.commodities[${i}]`;
    c.require(!!text(item.description), `${p}.description`);
    c.require(/^[A-Z]{2}$/.test(String(item.countryOfManufacture ?? "")), `${p}.countryOfManufacture`);
    c.require(Number.isInteger(item.quantity) && (item.quantity as number) > 0, `${p}.quantity`);
    c.require(
      num(obj(item.customsValue).amount) !== null && !!text(obj(item.customsValue).currency),
      `${p}.customsValue`,
    );
    c.require(num(obj(item.weight).value) !== null, `${p}.weight`);
  });
  const payment = obj(d.dutiesPayment);
  if (c.require(PAYMENT_TYPES.has(String(payment.paymentType)), `${at}.dutiesPayment.paymentType`)) {
    if (payment.paymentType === "THIRD_PARTY") {
      c.require(!!text(obj(obj(obj(payment.payor).responsibleParty).accountNumber).value), `${at}.dutiesPayment.payor`);
    }
  }
  return d;
}

// --- journeys ------------------------------------------------------------------------------------------------------

interface Place {
  city: string;
  stateOrProvinceCode?: string;
  postalCode: string;
  countryCode: string;
}

const HUB: Place = { city: "MEMPHIS", stateOrProvinceCode: "TN", postalCode: "38118", countryCode: "US" };
const CITIES: Place[] = [
  { city: "NEW YORK", stateOrProvinceCode: "NY", postalCode: "10118", countryCode: "US" },
  { city: "LOS ANGELES", stateOrProvinceCode: "CA", postalCode: "90012", countryCode: "US" },
  { city: "CHICAGO", stateOrProvinceCode: "IL", postalCode: "60607", countryCode: "US" },
  { city: "AUSTIN", stateOrProvinceCode: "TX", postalCode: "78701", countryCode: "US" },
  { city: "SEATTLE", stateOrProvinceCode: "WA", postalCode: "98101", countryCode: "US" },
  { city: "ATLANTA", stateOrProvinceCode: "GA", postalCode: "30303", countryCode: "US" },
];
const OFFSETS = new Map([
  ["US", "-05:00"],
  ["CA", "-05:00"],
  ["MX", "-06:00"],
  ["GB", "+00:00"],
  ["IE", "+00:00"],
  ["PT", "+00:00"],
]);
const EUROPE = new Set(["DE", "FR", "NL", "BE", "IT", "ES", "AT", "CH", "DK", "SE", "NO", "PL", "LU"]);
const offsetOf = (country: string) => OFFSETS.get(country) ?? (EUROPE.has(country) ? "+01:00" : "+00:00");

interface Step {
  hours: number;
  type: string;
  derived: string;
  description: string;
  where: "origin" | "hub" | "destination";
  exception?: string;
}

const STEPS = {
  created: { type: "OC", derived: "IN", description: "Shipment information sent to FedEx", where: "origin" },
  pickedUp: { type: "PU", derived: "PU", description: "Picked up", where: "origin" },
  atHub: { type: "AR", derived: "IT", description: "Arrived at FedEx hub", where: "hub" },
  leftHub: { type: "DP", derived: "IT", description: "Departed FedEx hub", where: "hub" },
  atDestination: { type: "AR", derived: "IT", description: "At local FedEx facility", where: "destination" },
  released: { type: "CC", derived: "IT", description: "International shipment release - Import", where: "destination" },
  onVehicle: { type: "OD", derived: "OD", description: "On FedEx vehicle for delivery", where: "destination" },
  delivered: { type: "DL", derived: "DL", description: "Delivered", where: "destination" },
  notHome: {
    type: "DE",
    derived: "DE",
    description: "Delivery exception",
    where: "destination",
    exception: "Customer not available or business closed",
  },
  held: { type: "HL", derived: "HL", description: "Ready for recipient pickup", where: "destination" },
  returned: { type: "RS", derived: "RS", description: "Returning package to shipper", where: "destination" },
  clearance: {
    type: "CD",
    derived: "CD",
    description: "Clearance delay",
    where: "destination",
    exception: "Import documentation required",
  },
  addressHold: {
    type: "SE",
    derived: "SE",
    description: "Shipment exception",
    where: "destination",
    exception: "Incorrect address",
  },
  // FedEx publishes no code for a lost or destroyed parcel: it is a shipment exception, and the words are the
  // emulator's (FedEx's own reason codes, `ancillaryDetails[].reason`, are not published either).
  lost: {
    type: "SE",
    derived: "SE",
    description: "Shipment exception",
    where: "hub",
    exception: "Package could not be located",
  },
  weather: {
    type: "DY",
    derived: "DY",
    description: "Delay",
    where: "hub",
    exception: "Severe weather conditions have delayed delivery",
  },
} satisfies Record<string, Omit<Step, "hours">>;

const at = (hours: number, step: Omit<Step, "hours">): Step => ({ hours, ...step });

/**
 * A label bought with the customer reference `JOURNEY-ATTEMPT`, `-DELAY`, `-RETURN` or `-LOST` (any case) makes that
 * journey, as the UPS emulator's do (ups-tracking.ts); its number carries the scenario digit like any other.
 */
const JOURNEY_SCENARIOS: ReadonlyMap<string, number> = new Map([
  ["ATTEMPT", 6],
  ["DELAY", 8],
  ["RETURN", 5],
  ["LOST", 4],
]);

function scenarioOfReference(references: unknown[]): number {
  for (const r of references) {
    const name = /^JOURNEY-(\w+)$/i.exec(String(obj(r).value ?? "").trim())?.[1]?.toUpperCase();
    const scenario = name === undefined ? undefined : JOURNEY_SCENARIOS.get(name);
    if (scenario !== undefined) return scenario;
  }
  return 0;
}

/** The journey for a scenario digit (the sandbox's scenarios, but 4: a lost parcel), hours after the sale. */
function journey(scenario: number, international: boolean): Step[] {
  const s = STEPS;
  const x = international ? 2 : 1;
  const start = [at(0, s.created), at(3, s.pickedUp), at(6, s.atHub), at(9, s.leftHub)];
  const arrive = [at(20 * x, s.atDestination), ...(international ? [at(20 * x + 3, s.released)] : [])];
  const deliver = (h: number) => [at(h, s.onVehicle), at(h + 4, s.delivered)];
  switch (scenario) {
    case 1:
      return [at(0, s.created)];
    case 2:
      return start;
    case 3:
      return [...start, ...arrive, at(26 * x, s.onVehicle)];
    case 5:
      return [
        ...start,
        ...arrive,
        at(26 * x, s.onVehicle),
        at(28 * x, s.notHome),
        at(50 * x, s.onVehicle),
        at(52 * x, s.notHome),
        at(60 * x, s.returned),
      ];
    case 6:
      return [...start, ...arrive, at(26 * x, s.onVehicle), at(28 * x, s.notHome), at(32 * x, s.held)];
    case 7:
      return [...start, at(20 * x, s.atDestination), at(20 * x + 2, international ? s.clearance : s.addressHold)];
    case 8:
      return [...start, at(12, s.weather), at(44 * x, s.atDestination), ...deliver(50 * x)];
    case 4:
      return [...start, at(14, s.lost)];
    default:
      return [...start, ...arrive, ...deliver(26 * x)];
  }
}

// --- what it sold --------------------------------------------------------------------------------------------------

interface Sale {
  trackingNumber: string;
  pieces: string[];
  account: string;
  service: Service;
  soldAt: Date;
  origin: Place;
  destination: Place;
  international: boolean;
  scenario: number;
  voidedAt: Date | null;
}

function sales(state: CarrierState): Map<string, Sale> {
  let m = state.data.get("sales") as Map<string, Sale> | undefined;
  if (!m) state.data.set("sales", (m = new Map()));
  return m;
}

function nextSerial(state: CarrierState): number {
  const n = ((state.data.get("serial") as number | undefined) ?? Math.floor(Math.random() * 5000)) + 1;
  state.data.set("serial", n);
  return n;
}

const placeOf = (a: Json): Place => ({
  city: String(a.city ?? "").toUpperCase(),
  ...(text(a.stateOrProvinceCode) ? { stateOrProvinceCode: String(a.stateOrProvinceCode) } : {}),
  postalCode: String(a.postalCode ?? ""),
  countryCode: String(a.countryCode ?? ""),
});

/** Our Address shape for the label renderer, from a FedEx party. */
function addressOf(party: Json): Address {
  const a = obj(party.address);
  const c = obj(party.contact);
  const lines = Array.isArray(a.streetLines) ? a.streetLines.map(String) : [];
  return {
    person_name: text(c.personName),
    company_name: text(c.companyName),
    address_line1: lines[0] ?? "",
    address_line2: lines[1] ?? null,
    city: String(a.city ?? ""),
    postal_code: String(a.postalCode ?? ""),
    state_code: String(a.stateOrProvinceCode ?? ""),
    country_code: String(a.countryCode ?? ""),
    suburb: null,
    residential: a.residential === true,
    email: null,
    phone_number: text(c.phoneNumber),
    federal_tax_id: null,
    state_tax_id: null,
  };
}

async function render(content: LabelContent, type: LabelType): Promise<string> {
  const bytes =
    type === "PDF"
      ? await renderPdfLabel(content)
      : type === "PNG"
        ? renderPngLabel(content)
        : new TextEncoder().encode(renderZplLabel(content));
  return Buffer.from(bytes).toString("base64");
}

// --- operations ----------------------------------------------------------------------------------------------------

function token(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const form = req.form;
  if (
    !form ||
    form.get("grant_type") !== "client_credentials" ||
    !form.get("client_id") ||
    !form.get("client_secret")
  ) {
    return refuse(400, [
      { code: "BAD.REQUEST.ERROR", message: "The given grant_type, client_id or client_secret is missing or invalid." },
    ]);
  }
  if (form.get("client_secret") === "invalid") {
    return refuse(401, [
      {
        code: "NOT.AUTHORIZED.ERROR",
        message: "The given client credentials were not valid. Please modify your request and try again.",
      },
    ]);
  }
  const issued = state.issueToken();
  return json(200, {
    access_token: issued.token,
    token_type: "bearer",
    expires_in: issued.expiresInSeconds,
    scope: "CXS-TP",
  });
}

function rate(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const body = obj(req.json);
  const shipment = obj(body.requestedShipment);
  const c = new Checks();
  c.require(!!text(obj(body.accountNumber).value), "accountNumber.value");
  checkAddress(c, obj(obj(shipment.shipper).address), "requestedShipment.shipper.address", false);
  checkAddress(c, obj(obj(shipment.recipient).address), "requestedShipment.recipient.address", false);
  c.require(PICKUP_TYPES.has(String(shipment.pickupType)), "requestedShipment.pickupType");
  const packages = checkPackages(c, shipment.requestedPackageLineItems, "requestedShipment.requestedPackageLineItems");
  const route = routeOf(
    obj(shipment.shipper),
    obj(shipment.recipient),
    packages,
    text(shipment.shipDateStamp),
    state.now(),
  );
  if (route.international) {
    const commodities = list(obj(shipment.customsClearanceDetail).commodities);
    c.require(commodities.length > 0, "requestedShipment.customsClearanceDetail.commodities");
  }
  // rate-api.json (shipDateStamp): "should not be a past date or a date more than 10 days in the future", on the
  // shipper's calendar. The code is ours: the spec names none for it.
  const stamp = text(shipment.shipDateStamp);
  const ahead = stamp ? daysAfter(originToday(obj(obj(shipment.shipper).address), state.now()), stamp) : 0;
  if (Number.isNaN(ahead) || ahead < 0 || ahead > 10) {
    return refuse(400, [
      {
        code: "SHIPDATESTAMP.INVALID",
        message: "The ship date must be today or up to 10 days ahead in the shipper's time zone.",
        field: "requestedShipment.shipDateStamp",
      },
    ]);
  }
  const smartPost = checkSmartPost(c, shipment.smartPostInfoDetail, "requestedShipment.smartPostInfoDetail");
  const wanted = text(shipment.serviceType);
  const options = optionSurcharges(c, shipment, packages, wanted ? SERVICE_BY_CODE.get(wanted) : undefined);
  const refused = c.answer();
  if (refused) return refused;

  const offered = servicesOn(route.international, route.residential, smartPost).filter(
    (s) => !wanted || s.code === wanted,
  );
  if (offered.length === 0) {
    return refuse(400, [
      {
        code: "RATE.SERVICE.NOTAVAILABLE",
        message: `${wanted ?? "No service"} is not available between the origin and destination.`,
      },
    ]);
  }
  const rateTypes = new Set((Array.isArray(shipment.rateRequestType) ? shipment.rateRequestType : []).map(String));
  return json(200, {
    transactionId: randomUUID(),
    output: {
      rateReplyDetails: offered.map((s) => rateReplyDetail(s, route, rateTypes, options)),
      quoteDate: route.shipDate,
      encoded: false,
    },
  });
}

async function ship(req: EmulatorRequest, state: CarrierState): Promise<EmulatorResponse> {
  const body = obj(req.json);
  const shipment = obj(body.requestedShipment);
  const shipper = obj(shipment.shipper);
  const recipient = list(shipment.recipients)[0] ?? {};
  const c = new Checks();
  const account = text(obj(body.accountNumber).value);
  c.require(!!account, "accountNumber.value");
  c.require(body.labelResponseOptions === "LABEL" || body.labelResponseOptions === "URL_ONLY", "labelResponseOptions");
  for (const [party, path] of [
    [shipper, "requestedShipment.shipper"],
    [recipient, "requestedShipment.recipients[0]"],
  ] as const) {
    const contact = obj(party.contact);
    c.require(!!(text(contact.personName) || text(contact.companyName)), `${path}.contact.personName`);
    c.require(/^\+?\d{10,15}$/.test(String(contact.phoneNumber ?? "")), `${path}.contact.phoneNumber`);
    checkAddress(c, obj(party.address), `${path}.address`, true);
  }
  const service = SERVICE_BY_CODE.get(String(shipment.serviceType));
  c.require(
    !!service,
    "requestedShipment.serviceType",
    "SERVICETYPE.INVALID",
    "The service type is invalid or not available.",
  );
  c.require(!!text(shipment.packagingType), "requestedShipment.packagingType");
  c.require(PICKUP_TYPES.has(String(shipment.pickupType)), "requestedShipment.pickupType");
  c.require(num(shipment.totalWeight) !== null, "requestedShipment.totalWeight");
  const payment = obj(shipment.shippingChargesPayment);
  if (
    c.require(PAYMENT_TYPES.has(String(payment.paymentType)), "requestedShipment.shippingChargesPayment.paymentType")
  ) {
    if (payment.paymentType !== "SENDER") {
      c.require(
        !!text(obj(obj(obj(payment.payor).responsibleParty).accountNumber).value),
        "requestedShipment.shippingChargesPayment.payor.responsibleParty.accountNumber",
      );
    }
  }
  const labelSpec = obj(shipment.labelSpecification);
  const imageType = IMAGE_TYPES.get(String(labelSpec.imageType));
  c.require(!!imageType, "requestedShipment.labelSpecification.imageType");
  c.require(STOCK_TYPES.has(String(labelSpec.labelStockType)), "requestedShipment.labelSpecification.labelStockType");
  if (imageType === "ZPL")
    c.require(
      String(labelSpec.labelStockType).startsWith("STOCK_"),
      "requestedShipment.labelSpecification.labelStockType",
    );
  const packages = checkPackages(c, shipment.requestedPackageLineItems, "requestedShipment.requestedPackageLineItems");
  const route = routeOf(shipper, recipient, packages, text(shipment.shipDatestamp), state.now());
  const special = obj(shipment.shipmentSpecialServices);
  const etd =
    Array.isArray(special.specialServiceTypes) && special.specialServiceTypes.includes("ELECTRONIC_TRADE_DOCUMENTS");
  // FedEx draws the documents `shippingDocumentSpecification` asks for and answers them in `shipmentDocuments`.
  const documentTypes = obj(shipment.shippingDocumentSpecification).shippingDocumentTypes;
  const invoiceAsked = Array.isArray(documentTypes) && documentTypes.includes("COMMERCIAL_INVOICE");
  if (route.international) {
    checkCustoms(c, shipment.customsClearanceDetail, "requestedShipment.customsClearanceDetail");
    if (etd) {
      const requested = obj(special.etdDetail).requestedDocumentTypes;
      c.require(
        Array.isArray(requested) && requested.includes("COMMERCIAL_INVOICE"),
        "requestedShipment.shipmentSpecialServices.etdDetail.requestedDocumentTypes",
      );
      c.require(invoiceAsked, "requestedShipment.shippingDocumentSpecification.shippingDocumentTypes");
    }
  }
  checkSmartPost(c, shipment.smartPostInfoDetail, "requestedShipment.smartPostInfoDetail");
  checkConditional(c, shipment, route, packages);
  const options = optionSurcharges(c, shipment, packages, service);
  if (service && service.international !== route.international) {
    c.require(
      false,
      "requestedShipment.serviceType",
      "SERVICE.UNAVAILABLE.ROUTE",
      `${service.name} is not available between the origin and destination.`,
    );
  }
  const refused = c.answer();
  if (refused) return refused;
  if (!service || !imageType || !account) throw new Error("checked above");

  const now = state.now();
  const book = sales(state);
  const scenario = scenarioOfReference(list(packages[0]?.customerReferences));
  const pieces = packages.map(() => {
    let n: string;
    do n = fedexEmulatorNumber({ soldAt: now, serial: nextSerial(state), scenario });
    while (book.has(n));
    return n;
  });
  const master = pieces[0]!;
  const sale: Sale = {
    trackingNumber: master,
    pieces,
    account,
    service,
    soldAt: now,
    origin: placeOf(route.origin),
    destination: placeOf(route.destination),
    international: route.international,
    scenario,
    voidedAt: null,
  };
  for (const n of pieces) book.set(n, sale);

  const shipDate = route.shipDate;
  const reference = list(packages[0]?.customerReferences).find((r) => r.customerReferenceType === "CUSTOMER_REFERENCE");
  const account_ = priced(service, route, true, options);
  const list_ = priced(service, route, false, options);
  const rateDetail = (rateType: string, p: ReturnType<typeof priced>) => ({
    rateType,
    rateZone: String(route.zone),
    ratedWeightMethod: "ACTUAL",
    totalBaseCharge: p.list,
    totalFreightDiscounts: p.discount,
    totalNetFreight: round2(p.list - p.discount),
    totalSurcharges: p.totalSurcharges,
    totalNetFedExCharge: p.net,
    totalTaxes: 0,
    totalNetCharge: p.net,
    totalRebates: 0,
    totalDutiesAndTaxes: 0,
    totalNetChargeWithDutiesAndTaxes: p.net,
    surcharges: p.surcharges.map(({ type, ...rest }) => ({ surchargeType: type, ...rest })),
    fuelSurchargePercent: p.fuelPercent,
    currency: route.currency,
  });
  const pieceResponses = await Promise.all(
    pieces.map(async (n, i) => {
      const content: LabelContent = {
        carrierName: "FedEx",
        serviceName: service.name,
        trackingNumber: n,
        shipper: addressOf(shipper),
        recipient: addressOf(recipient),
        weightText: `${obj(packages[i]!.weight).value} ${obj(packages[i]!.weight).units}`,
        reference: text(reference?.value) ?? null,
        shipDate,
        barcodeValue: n,
        routingText: `${service.international ? "INTL" : `ZONE ${route.zone}`}  ${placeOf(route.destination).city}`,
        footerText: pieces.length > 1 ? `EMULATOR TEST LABEL - ${i + 1} OF ${pieces.length}` : "EMULATOR TEST LABEL",
      };
      return {
        trackingNumber: n,
        masterTrackingNumber: master,
        packageSequenceNumber: i + 1,
        trackingIdType: service.ground ? "FEDEX" : "EXPRESS",
        serviceCategory: service.ground ? "GROUND" : "EXPRESS",
        netChargeAmount: round2(account_.net / pieces.length),
        deliveryTimestamp: addBusinessDays(shipDate, service.days),
        customerReferences: list(packages[i]!.customerReferences),
        packageDocuments: [
          {
            contentType: "LABEL",
            copiesToPrint: 1,
            docType: String(labelSpec.imageType),
            trackingNumber: n,
            encodedLabel: await render(content, imageType),
          },
        ],
      };
    }),
  );
  const invoice =
    invoiceAsked && route.international
      ? [
          {
            contentType: "COMMERCIAL_INVOICE",
            copiesToPrint: 1,
            docType: "PDF",
            trackingNumber: master,
            encodedLabel: await render(
              {
                carrierName: "FedEx",
                serviceName: etd ? "COMMERCIAL INVOICE (ETD)" : "COMMERCIAL INVOICE",
                trackingNumber: master,
                shipper: addressOf(shipper),
                recipient: addressOf(recipient),
                weightText: `${round2(route.weightLb)} LB`,
                reference: null,
                shipDate,
                barcodeValue: master,
                footerText: "EMULATOR TEST DOCUMENT",
              },
              "PDF",
            ),
          },
        ]
      : [];
  return json(200, {
    transactionId: randomUUID(),
    output: {
      transactionShipments: [
        {
          serviceType: service.code,
          serviceName: service.name,
          shipDatestamp: shipDate,
          serviceCategory: service.ground ? "GROUND" : "EXPRESS",
          masterTrackingNumber: master,
          pieceResponses,
          shipmentDocuments: invoice,
          completedShipmentDetail: {
            carrierCode: service.ground ? "FDXG" : "FDXE",
            usDomestic: !route.international && route.origin.countryCode === "US",
            masterTrackingId: { trackingIdType: service.ground ? "FEDEX" : "EXPRESS", trackingNumber: master },
            serviceDescription: { serviceType: service.code, description: service.name },
            operationalDetail: {
              transitTime: WORDS[service.days - 1],
              deliveryDate: addBusinessDays(shipDate, service.days),
            },
            shipmentRating: {
              actualRateType: "PAYOR_ACCOUNT_SHIPMENT",
              shipmentRateDetails: [
                rateDetail("PAYOR_ACCOUNT_SHIPMENT", account_),
                rateDetail("PAYOR_LIST_SHIPMENT", list_),
              ],
            },
            ...(etd
              ? {
                  completedEtdDetail: {
                    type: "COMMERCIAL_INVOICE",
                    folderId: randomUUID().replace(/-/g, "").slice(0, 16),
                  },
                }
              : {}),
          },
          alerts: [],
        },
      ],
    },
  });
}

/** The journey's steps that have happened by `now`, and whether the parcel has left the shipper's hands. */
function progress(parts: { soldAt: Date; scenario: number; international: boolean; voidedAt: Date | null }, now: Date) {
  const elapsed = (now.getTime() - parts.soldAt.getTime()) / HOUR;
  const steps = journey(parts.scenario, parts.international).filter((s) => s.hours <= elapsed);
  return { steps, pickedUp: steps.some((s) => s.type !== "OC") };
}

function cancel(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const body = obj(req.json);
  const c = new Checks();
  const account = text(obj(body.accountNumber).value);
  const number = text(body.trackingNumber);
  c.require(!!account, "accountNumber.value");
  c.require(!!number, "trackingNumber");
  const refused = c.answer();
  if (refused) return refused;
  const sale = sales(state).get(number!);
  if (!sale) {
    return refuse(400, [
      {
        code: "TRACKINGNUMBER.ENTERED.INVALID",
        message: "Error with entered Tracking Number. Please verify the entered Tracking Number.",
      },
    ]);
  }
  if (sale.account !== account) {
    return refuse(400, [
      { code: "SHIPMENT.USER.UNAUTHORIZED", message: "Requested user is not authorized to perform the operation." },
    ]);
  }
  if (sale.voidedAt) {
    return refuse(400, [
      {
        code: "SHIPMENT.ALREADY.CANCELLED",
        message: "Shipment Delete was requested for a tracking number already in a deleted state.",
      },
    ]);
  }
  if (progress(sale, state.now()).pickedUp) {
    return refuse(400, [
      {
        code: "SHIPMENT.CANCEL.NOTALLOWED",
        message: "The shipment has been tendered to FedEx and can no longer be cancelled.",
      },
    ]);
  }
  sale.voidedAt = state.now();
  return json(200, {
    transactionId: randomUUID(),
    output: { cancelledShipment: true, cancelledHistory: true, successMessage: "Success" },
  });
}

function placeFor(step: Step, origin: Place, destination: Place): Place {
  return step.where === "origin" ? origin : step.where === "destination" ? destination : HUB;
}

function stamp(at: Date, place: Place): string {
  const offset = offsetOf(place.countryCode);
  const minutes = (offset.startsWith("-") ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  return new Date(at.getTime() + minutes * 60_000).toISOString().slice(0, 19) + offset;
}

function trackResult(number: string, state: CarrierState): Json {
  const parts = parseNumber(number);
  const sale = sales(state).get(number);
  const now = state.now();
  const notFound = {
    trackingNumber: number,
    trackResults: [
      {
        // No carrierCode: track.json's enum has no empty value for a number FedEx does not know.
        trackingNumberInfo: { trackingNumber: number, trackingNumberUniqueId: "" },
        error: {
          code: "TRACKING.TRACKINGNUMBER.NOTFOUND",
          message: "Tracking number cannot be found. Please correct the tracking number and try again.",
        },
      },
    ],
  };
  if (!parts || parts.scenario === 9 || parts.soldAt.getTime() > now.getTime() + HOUR) return notFound;
  const origin = sale?.origin ?? CITIES[parts.serial % CITIES.length]!;
  let destination = sale?.destination ?? CITIES[Math.floor(parts.serial / 10) % CITIES.length]!;
  if (!sale && destination === origin) destination = CITIES[(parts.serial + 1) % CITIES.length]!;
  const journeyOf = sale ?? { soldAt: parts.soldAt, scenario: parts.scenario, international: false, voidedAt: null };
  const { steps } = progress(journeyOf, now);
  const events = steps.map((s) => {
    const place = placeFor(s, origin, destination);
    return {
      date: stamp(new Date(journeyOf.soldAt.getTime() + s.hours * HOUR), place),
      eventType: s.type,
      eventDescription: s.description,
      derivedStatusCode: s.derived,
      derivedStatus: s.description,
      ...(s.exception ? { exceptionCode: "08", exceptionDescription: s.exception } : {}),
      scanLocation: { ...place, residential: false },
      locationType:
        s.where === "hub" ? "SORT_FACILITY" : s.where === "origin" ? "PICKUP_LOCATION" : "DESTINATION_FEDEX_FACILITY",
    };
  });
  if (sale?.voidedAt) {
    events.push({
      date: stamp(sale.voidedAt, origin),
      eventType: "CA",
      eventDescription: "Shipment cancelled by sender",
      derivedStatusCode: "CA",
      derivedStatus: "Shipment cancelled",
      scanLocation: { ...origin, residential: false },
      locationType: "PICKUP_LOCATION",
    });
  }
  events.reverse();
  const latest = events[0]!;
  const service = sale?.service ?? SERVICE_BY_CODE.get("FEDEX_2_DAY")!;
  const delivered = latest.eventType === "DL";
  const shipDate = journeyOf.soldAt.toISOString().slice(0, 10);
  return {
    trackingNumber: number,
    trackResults: [
      {
        trackingNumberInfo: {
          trackingNumber: number,
          carrierCode: service.ground ? "FDXG" : "FDXE",
          trackingNumberUniqueId: `12029~${number}~${service.ground ? "FDEG" : "FX"}`,
        },
        latestStatusDetail: {
          code: latest.eventType,
          derivedCode: latest.derivedStatusCode,
          statusByLocale: latest.derivedStatus,
          description: latest.eventDescription,
          scanLocation: latest.scanLocation,
          ...(latest.exceptionDescription
            ? { ancillaryDetails: [{ reason: latest.exceptionCode, reasonDescription: latest.exceptionDescription }] }
            : {}),
        },
        serviceDetail: { type: service.code, description: service.name },
        dateAndTimes: [
          ...(delivered
            ? [{ type: "ACTUAL_DELIVERY", dateTime: latest.date }]
            : [
                {
                  type: "ESTIMATED_DELIVERY",
                  dateTime: `${addBusinessDays(shipDate, service.days)}T20:00:00${offsetOf(destination.countryCode)}`,
                },
              ]),
          { type: "SHIP", dateTime: `${shipDate}T00:00:00${offsetOf(origin.countryCode)}` },
        ],
        deliveryDetails: {
          deliveryAttempts: String(events.filter((e) => e.eventType === "DE").length),
          ...(delivered ? { receivedByName: "FRONT DESK", locationType: "RECEPTIONIST_OR_FRONT_DESK" } : {}),
        },
        scanEvents: events,
      },
    ],
  };
}

function track(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const body = obj(req.json);
  const c = new Checks();
  c.require(typeof body.includeDetailedScans === "boolean", "includeDetailedScans");
  const infos = list(body.trackingInfo);
  if (
    !c.require(infos.length > 0, "trackingInfo", "TRACKING.TRACKINGNUMBER.EMPTY", "Please provide tracking number.")
  ) {
    return c.answer()!;
  }
  c.require(
    infos.length <= 30,
    "trackingInfo",
    "TRACKING.TRACKINGNUMBER.LIMITEXCEEDED",
    "Please provide no more than 30 tracking numbers.",
  );
  const numbers = infos.map((i) => text(obj(i.trackingNumberInfo).trackingNumber));
  numbers.forEach((n, i) =>
    c.require(
      !!n,
      `trackingInfo[${i}].trackingNumberInfo.trackingNumber`,
      "TRACKING.TRACKINGNUMBER.EMPTY",
      "Please provide tracking number.",
    ),
  );
  const refused = c.answer();
  if (refused) return refused;
  const results = numbers.map((n) => trackResult(n!, state));
  const anyMissing = results.some((r) => list(r.trackResults).some((t) => t.error));
  return json(200, {
    transactionId: randomUUID(),
    output: {
      completeTrackResults: results,
      // track.json's example writes this alert as one string; its schema, which the emulator follows, as Alert items.
      ...(anyMissing
        ? { alerts: [{ code: "TRACKING.DATA.NOTFOUND", alertType: "NOTE", message: "Tracking data unavailable" }] }
        : {}),
    },
  });
}

/** `POST /address/v1/addresses/resolve`: the directory's answer per address (fedex-address.ts). */
function resolveAddresses(req: EmulatorRequest): EmulatorResponse {
  const body = obj(req.json);
  const c = new Checks();
  for (const field of resolveProblems(body)) c.require(false, field);
  return (
    c.answer() ??
    json(200, {
      transactionId: randomUUID(),
      output: { resolvedAddresses: list(body.addressesToValidate).map(resolvedAddress) },
    })
  );
}

/** FedEx's files (it publishes none for its token endpoint; where they say what they do not mean: specs/fedex/errata.json). */
const FEDEX_CONTRACT: CarrierContract = {
  files: ["fedex/rate-api.json", "fedex/ship-api.json", "fedex/track.json", "fedex/address-validation.json"],
  refuse: (problems) =>
    refuse(
      400,
      problems.map((p) => ({
        code: "INVALID.INPUT.EXCEPTION",
        message: `Invalid field value in the input: ${problemText(p)}`,
        field: p.field || undefined,
      })),
    ),
};

export const fedexEmulator: EmulatedCarrier = {
  name: "fedex",
  contract: FEDEX_CONTRACT,
  tokenTtlSeconds: 3599,
  operationOf(method: string, path: string): Operation | null {
    if (method === "POST" && path === "/oauth/token") return "token";
    if (method === "POST" && path === "/rate/v1/rates/quotes") return "rate";
    if (method === "POST" && path === "/ship/v1/shipments") return "ship";
    if (method === "PUT" && path === "/ship/v1/shipments/cancel") return "void";
    if (method === "POST" && path === "/track/v1/trackingnumbers") return "track";
    if (method === "POST" && path === "/address/v1/addresses/resolve") return "address_validation";
    return null;
  },
  handle(req, state) {
    const operation = this.operationOf(req.method, req.path);
    if (operation !== "token" && req.json === null) {
      return refuse(400, [
        { code: "INVALID.INPUT.EXCEPTION", message: "Invalid field value in the input: the request body" },
      ]);
    }
    switch (operation) {
      case "token":
        return token(req, state);
      case "rate":
        return rate(req, state);
      case "ship":
        return ship(req, state);
      case "void":
        return cancel(req, state);
      case "address_validation":
        return resolveAddresses(req);
      default:
        return track(req, state);
    }
  },
  errorBody(status: number, _code: string, message: string) {
    const [code, text] = ERROR_CODES.get(status) ?? [`HTTP.${status}`, message];
    return { transactionId: randomUUID(), errors: [{ code, message: text }] };
  },
};
