import { PDFDocument, StandardFonts } from "pdf-lib";
import type {
  CarrierContract,
  CarrierState,
  EmulatedCarrier,
  EmulatorRequest,
  EmulatorResponse,
  Operation,
} from "./server";
import { localClock, originTimeZone } from "@/lib/carriers/ship-date";
import { problemText } from "./contract";
import { addressValidation } from "./ups-address";
import { gifLabel, zplLabel } from "./ups-label";
import { isValidUpsTrackingNumber, makeUpsTrackingNumber, trackedPackage, type Place, type Sale } from "./ups-tracking";

/**
 * UPS in the carrier emulator: the token endpoint, Rating, Shipping (ship and void) and Tracking, speaking UPS's
 * wire format (OAuthClientCredentials.yaml, Rating.yaml, Shipping.yaml, Tracking.yaml; docs/ups.md). It checks what UPS
 * requires (and the lengths it allows) and answers UPS's error shape when something is missing, so an adapter that
 * sends a wrong request fails here as it would at UPS.
 *
 * - Token: any client id and secret, except a client id starting with "invalid" (401 10401 "ClientId is Invalid").
 *   A client id starting with "blocked" gets a token, and every call with it answers 403 Blocked Merchant.
 * - Rates: a tariff by service, zone and billable weight, with fuel and residential surcharges, negotiated rates
 *   (20 % off) when asked for with a shipper number, GST on Canadian origins, time in transit. On account NOITEM the
 *   negotiated rates come as a bare total, without their base or itemized charges. Service options (signature,
 *   declared value, Saturday delivery) are checked and charged as itemized accessorials (serviceOptions).
 * - Ship: 1Z numbers with their check digit, one per package; GIF or ZPL labels drawn from the request; a printable
 *   invoice (Form) when the request overrides paperless.
 * - Void: until the package is picked up (3 h after the sale); "already voided" afterwards is 190117. Labels sold
 *   on account NOVOID are answered 200 with every package "0 Not Voided"; on account PARTVD the first void of a
 *   shipment voids its first package only (a partial void) and a second void the rest.
 * - Track: sold numbers move with time since the sale; any other valid 1Z number is "not found" (TW0001); anything
 *   that is not a valid 1Z number is "invalid inquiry number" (TV1002).
 *
 * Error codes UPS documents are UPS's (111100, 190102, TV1002, TW0001, 10401); for a missing or malformed field the
 * emulator answers 120001 with a message naming the field, where UPS has a long list of its own.
 */

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const money = (amount: number, currency: string) => ({ CurrencyCode: currency, MonetaryValue: amount.toFixed(2) });
const round2 = (n: number) => Math.round(n * 100) / 100;

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const errorBody = (code: string, message: string) => ({ response: { errors: [{ code, message }] } });

function need(condition: unknown, message: string, code = "120001"): asserts condition {
  if (!condition) throw new Refusal(400, code, message);
}

function text(v: unknown, max: number, field: string, required = true): string {
  const s = str(v);
  need(!required || s.trim().length > 0, `Missing ${field}.`);
  need(s.length <= max, `Invalid ${field}: longer than ${max} characters.`);
  return s;
}

// ---------------------------------------------------------------------------------------------------------------
// Services, zones and prices

const SERVICE_NAMES = new Map([
  ["01", "UPS Next Day Air"],
  ["02", "UPS 2nd Day Air"],
  ["03", "UPS Ground"],
  ["07", "UPS Worldwide Express"],
  ["08", "UPS Worldwide Expedited"],
  ["11", "UPS Standard"],
  ["12", "UPS 3 Day Select"],
  ["13", "UPS Next Day Air Saver"],
  ["14", "UPS Next Day Air Early"],
  ["54", "UPS Worldwide Express Plus"],
  ["59", "UPS 2nd Day Air A.M."],
  ["65", "UPS Worldwide Saver"],
]);

const EU = new Set("AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK".split(" "));
const domesticOf = (c: string) => (c === "PR" ? "US" : c);

function servicesOnRoute(origin: string, destination: string): string[] {
  const from = domesticOf(origin);
  const to = domesticOf(destination);
  if (from === "US" && to === "US") return ["03", "12", "02", "59", "13", "01", "14"];
  if (from === "CA" && to === "CA") return ["11", "02", "13", "01", "14"];
  const northAmerica = new Set(["US", "CA", "MX"]);
  if (northAmerica.has(from) && northAmerica.has(to)) return ["11", "08", "65", "07", "54"];
  if ((EU.has(from) && EU.has(to)) || from === to) return ["11", "65", "07", "54"];
  return ["08", "65", "07", "54"];
}

const BASE = new Map([
  ["03", 9.5], ["12", 14], ["02", 18], ["59", 22], ["13", 26], ["01", 30], ["14", 62],
  ["11", 12], ["08", 40], ["65", 45], ["07", 50], ["54", 85],
]); // prettier-ignore

function transitDays(service: string, zone: number, international: boolean): number {
  switch (service) {
    case "01":
    case "13":
    case "14":
    case "54":
      return 1;
    case "02":
    case "59":
    case "07":
    case "65":
      return 2;
    case "12":
      return 3;
    case "08":
      return 4;
    case "11":
      return international ? 4 : 2;
    default:
      // Ground and Standard: about a business day per zone past the first, as UPS's ground maps show.
      return Math.min(5, Math.max(1, zone));
  }
}

const CURRENCY = new Map([
  ["US", "USD"], ["PR", "USD"], ["CA", "CAD"], ["MX", "MXN"], ["GB", "GBP"], ["PL", "PLN"], ["CH", "CHF"],
]); // prettier-ignore
const currencyOf = (country: string) => CURRENCY.get(country) ?? (EU.has(country) ? "EUR" : "USD");

interface Parcel {
  pounds: number;
}

function parcelsOf(packages: unknown[], packagingKey: "PackagingType" | "Packaging"): Parcel[] {
  need(packages.length > 0, "Missing Package.");
  return packages.map((raw, i) => {
    const p = obj(raw);
    need(p, `Invalid Package ${i + 1}.`);
    need(str(obj(p[packagingKey])?.Code).length === 2, `Missing or invalid ${packagingKey} code on package ${i + 1}.`);
    const weight = obj(p.PackageWeight);
    const unit = str(obj(weight?.UnitOfMeasurement)?.Code);
    const value = Number(str(weight?.Weight));
    need(
      ["LBS", "KGS", "OZS"].includes(unit),
      `Missing or invalid package weight unit of measurement on package ${i + 1}.`,
    );
    need(Number.isFinite(value) && value > 0, `Missing or invalid package weight on package ${i + 1}.`);
    need(
      str(weight?.Weight).length <= (packagingKey === "Packaging" ? 5 : 6),
      `Invalid package weight on package ${i + 1}.`,
    );
    let pounds = unit === "KGS" ? value / 0.45359237 : unit === "OZS" ? value / 16 : value;
    const dims = obj(p.Dimensions);
    if (dims) {
      const dimUnit = str(obj(dims.UnitOfMeasurement)?.Code);
      need(dimUnit === "IN" || dimUnit === "CM", `Invalid dimensions unit of measurement on package ${i + 1}.`);
      const sides = ["Length", "Width", "Height"].map((k) => {
        const v = str(dims[k]);
        need(/^\d+(\.\d+)?$/.test(v), `Missing or invalid package ${k.toLowerCase()} on package ${i + 1}.`);
        if (packagingKey === "Packaging")
          need(v.length <= 3, `Invalid package ${k.toLowerCase()} on package ${i + 1}.`);
        return Number(v) / (dimUnit === "CM" ? 2.54 : 1);
      });
      pounds = Math.max(pounds, (sides[0]! * sides[1]! * sides[2]!) / 139);
    }
    return { pounds };
  });
}

function zoneOf(from: Record<string, unknown>, to: Record<string, unknown>): number {
  if (str(from.CountryCode) !== str(to.CountryCode)) return 8;
  const digit = (a: Record<string, unknown>) => Number(/\d/.exec(str(a.PostalCode))?.[0] ?? 5);
  return Math.min(8, 2 + Math.abs(digit(from) - digit(to)));
}

/** The account whose negotiated rates come without itemized charges (a TotalCharge, with taxes where due). */
const NOT_ITEMIZED_ACCOUNT = "NOITEM";

interface Priced {
  charges: Record<string, unknown>;
  negotiated: Record<string, unknown> | null;
  currency: string;
}

function price(
  service: string,
  parcels: Parcel[],
  zone: number,
  origin: string,
  opts: { residential: boolean; negotiated: boolean; taxes: boolean; account?: string; options?: OptionCharge[] },
): Priced {
  const currency = currencyOf(origin);
  const international = zone === 8;
  const perPound = service === "03" ? 0.9 : international ? 3.5 : 2.2;
  const billable = parcels.reduce((s, p) => s + Math.ceil(p.pounds), 0);
  const base = round2(BASE.get(service)! + perPound * billable * (1 + zone / 10));
  const residential = opts.residential ? 5.65 * parcels.length : 0;
  const build = (b: number) => {
    const fuel = round2(b * 0.145);
    const items = [
      { Code: "375", CurrencyCode: currency, MonetaryValue: fuel.toFixed(2) },
      ...(residential ? [{ Code: "270", CurrencyCode: currency, MonetaryValue: residential.toFixed(2) }] : []),
    ];
    const options = (opts.options ?? []).map((o) => ({
      Code: o.code,
      CurrencyCode: currency,
      MonetaryValue: o.amount.toFixed(2),
    }));
    items.push(...options);
    const optionsTotal = round2((opts.options ?? []).reduce((s, o) => s + o.amount, 0));
    const total = round2(b + fuel + residential + optionsTotal);
    const tax = opts.taxes && origin === "CA" ? round2(total * 0.05) : 0;
    return { b, fuel, items, total, tax, optionsTotal };
  };
  const list = build(base);
  const charges: Record<string, unknown> = {
    BaseServiceCharge: money(list.b, currency),
    TransportationCharges: money(list.b + list.fuel + residential, currency),
    ItemizedCharges: list.items,
    ServiceOptionsCharges: money(list.optionsTotal, currency),
    TotalCharges: money(list.total, currency),
    ...(list.tax
      ? {
          TaxCharges: [{ Type: "GST", MonetaryValue: list.tax.toFixed(2) }],
          TotalChargesWithTaxes: money(list.total + list.tax, currency),
        }
      : {}),
  };
  if (!opts.negotiated) return { charges, negotiated: null, currency };
  const net = build(round2(base * 0.8));
  // Negotiated rates as a bare total, as UPS answers them for some accounts and older versions.
  const itemize = opts.account !== NOT_ITEMIZED_ACCOUNT;
  return {
    charges,
    currency,
    negotiated: {
      ...(itemize ? { BaseServiceCharge: [money(net.b, currency)], ItemizedCharges: net.items } : {}),
      TotalCharge: money(net.total, currency),
      ...(net.tax
        ? {
            TaxCharges: [{ Type: "GST", MonetaryValue: net.tax.toFixed(2) }],
            TotalChargesWithTaxes: money(net.total + net.tax, currency),
          }
        : {}),
    },
  };
}

interface OptionCharge {
  /** An ItemizedCharges code (Rating appendix): 120/121 delivery confirmation, 300 Saturday, 400 declared value. */
  code: string;
  amount: number;
}

/** Services UPS delivers on Saturdays (the adapter's table, restated: the emulator is UPS here). */
const SATURDAY_SERVICES = new Set(["01", "14", "02", "07", "54", "65"]);

/**
 * The service options a request asks for, checked where Shipping.yaml and Rating.yaml say it in prose, and priced
 * (a surcharge each) so a test sees they arrived:
 * - PackageServiceOptions.DeliveryConfirmation: DCISType "2" or "3" ("1 - Unsupported", Shipping.yaml
 *   PackageServiceOptions_DeliveryConfirmation), per package only within the US/PR and within Canada, and
 *   ShipmentServiceOptions.DeliveryConfirmation (DCISType "1" or "2") only between countries ("Refer to Delivery
 *   Confirmation Origin-Destination Pairs in the Appendix"); the two never together.
 * - SaturdayDeliveryIndicator with a service that has no Saturday delivery: refused when rating or buying that one
 *   service (120900 is the emulator's own code: UPS's for this is not in the specs), ignored in Shop.
 * - DeclaredValue: CurrencyCode and a MonetaryValue above 0.
 */
function serviceOptions(
  shipment: Record<string, unknown>,
  route: { origin: string; destination: string },
  service: string | null,
): (code: string) => OptionCharge[] {
  const shipmentOptions = obj(shipment.ShipmentServiceOptions);
  const packages = list(shipment.Package).map((p) => obj(obj(p)?.PackageServiceOptions));
  const pair = `${route.origin}/${route.destination}`;
  const perPackageRoute = ["US/US", "US/PR", "PR/US", "PR/PR", "CA/CA"].includes(pair);
  const shipmentSignature = obj(shipmentOptions?.DeliveryConfirmation);
  if (shipmentSignature) {
    need(["1", "2"].includes(str(shipmentSignature.DCISType)), "Invalid shipment DeliveryConfirmation DCISType.");
    need(!perPackageRoute, `Shipment level DeliveryConfirmation is not valid for ${pair}; use the package level.`);
  }
  const charges: OptionCharge[] = [];
  if (shipmentSignature) charges.push({ code: "121", amount: shipmentSignature.DCISType === "2" ? 7.8 : 6.35 });
  packages.forEach((p, i) => {
    const signature = obj(p?.DeliveryConfirmation);
    if (signature) {
      need(["2", "3"].includes(str(signature.DCISType)), `Invalid DeliveryConfirmation DCISType on package ${i + 1}.`);
      need(perPackageRoute, `Package level DeliveryConfirmation is not valid for ${pair} (package ${i + 1}).`);
      need(!shipmentSignature, "DeliveryConfirmation at both the shipment and the package level.");
      charges.push({ code: "120", amount: signature.DCISType === "3" ? 7.8 : 6.35 });
    }
    const declared = obj(p?.DeclaredValue);
    if (declared) {
      const value = Number(str(declared.MonetaryValue));
      need(/^[A-Z]{3}$/.test(str(declared.CurrencyCode)), `Missing DeclaredValue currency on package ${i + 1}.`);
      need(Number.isFinite(value) && value > 0, `Invalid DeclaredValue monetary value on package ${i + 1}.`);
      // UPS covers the first 100 without charge; each further 100 (or part) costs a little.
      charges.push({ code: "400", amount: round2(Math.max(0, Math.ceil((value - 100) / 100)) * 1.15) });
    }
  });
  const saturday = shipmentOptions?.SaturdayDeliveryIndicator !== undefined;
  if (saturday && service !== null && !SATURDAY_SERVICES.has(service)) {
    throw new Refusal(400, "120900", `Saturday delivery is not available for service ${service}.`);
  }
  return (code) => [...charges, ...(saturday && SATURDAY_SERVICES.has(code) ? [{ code: "300", amount: 16 }] : [])];
}

function addBusinessDays(from: Date, days: number): Date {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  for (let left = days; left > 0;) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
  }
  return d;
}

const ymd = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, "");

/** UPS reads a shipment's dates on the origin's calendar: the shipper's today, as a UTC midnight. */
function originToday(origin: Record<string, unknown> | undefined, now: Date): Date {
  const zone = originTimeZone({
    country_code: str(origin?.CountryCode),
    state_code: str(origin?.StateProvinceCode),
    postal_code: str(origin?.PostalCode),
  });
  return new Date(`${localClock(now, zone).date}T00:00:00Z`);
}

/** A `YYYYMMDD` date as a UTC midnight, and how many days it lies after `today` (negative: before). */
function dayOf(yyyymmdd: string, today: Date): { day: Date; offset: number } | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(yyyymmdd);
  const day = m ? new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`) : null;
  if (!day || Number.isNaN(day.getTime()) || ymd(day) !== yyyymmdd) return null;
  return { day, offset: Math.round((day.getTime() - today.getTime()) / 86_400_000) };
}
const DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

function crossesBorder(origin: string, destination: string): boolean {
  const territory = (c: string) => (EU.has(c) ? "EU" : domesticOf(c));
  return territory(origin) !== territory(destination);
}

function address(v: unknown, field: string, strict: boolean): Record<string, unknown> {
  const a = obj(v);
  need(a, `Missing ${field} address.`);
  const lines = a.AddressLine;
  need(Array.isArray(lines), `Missing ${field} address line.`);
  need(lines.length <= 3, `Invalid ${field} address: at most 3 address lines.`);
  lines.forEach((l, i) => text(l, 35, `${field} address line ${i + 1}`, strict));
  if (strict) need(lines.length > 0, `Missing ${field} address line.`);
  text(a.City, 30, `${field} city`, strict);
  const country = text(a.CountryCode, 2, `${field} country code`);
  need(country.length === 2, `Invalid ${field} country code.`);
  text(a.PostalCode, 9, `${field} postal code`, strict && ["US", "CA", "PR"].includes(country));
  text(a.StateProvinceCode, 5, `${field} state province code`, strict && ["US", "CA"].includes(country));
  return a;
}

// ---------------------------------------------------------------------------------------------------------------
// Token

function token(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const basic = /^Basic (.+)$/i.exec(str(req.headers.authorization))?.[1];
  const [clientId, secret] = basic ? Buffer.from(basic, "base64").toString("utf8").split(":") : [];
  if (!clientId || !secret) return { status: 401, body: errorBody("10400", "Invalid/Missing Authorization Header") };
  if (req.form?.get("grant_type") !== "client_credentials") {
    return { status: 400, body: errorBody("10400", "Invalid/Missing grant_type") };
  }
  if (clientId.startsWith("invalid")) return { status: 401, body: errorBody("10401", "ClientId is Invalid") };
  const issued = state.issueToken();
  state.data.set(`ups:client:${issued.token}`, clientId);
  return {
    status: 200,
    body: {
      token_type: "Bearer",
      issued_at: String(state.now().getTime()),
      client_id: clientId,
      access_token: issued.token,
      scope: "",
      expires_in: String(issued.expiresInSeconds),
      refresh_count: "0",
      status: "approved",
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Rating

function rate(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const option = req.path.split("/").pop()!.toLowerCase();
  const request = obj(obj(req.json)?.RateRequest);
  need(request, "Missing RateRequest.");
  need(obj(request.Request), "Missing Request.");
  const shipment = obj(request.Shipment);
  need(shipment, "Missing Shipment.");
  const shipper = obj(shipment.Shipper);
  need(shipper, "Missing Shipper.");
  const from = address(obj(shipment.ShipFrom)?.Address ?? shipper.Address, "ship from", false);
  const to = address(obj(shipment.ShipTo)?.Address, "ship to", false);
  const parcels = parcelsOf(list(shipment.Package), "PackagingType");
  const origin = str(from.CountryCode);
  const destination = str(to.CountryCode);
  const international = crossesBorder(origin, destination);
  const timeInTransit = option.endsWith("timeintransit");
  if (timeInTransit) {
    const total = obj(shipment.ShipmentTotalWeight);
    const unit = obj(total?.UnitOfMeasurement);
    need(
      total && str(unit?.Code) && str(unit?.Description) && Number(str(total.Weight)) > 0,
      "Missing or invalid ShipmentTotalWeight.",
    );
    const delivery = obj(shipment.DeliveryTimeInformation);
    need(str(delivery?.PackageBillType).length === 2, "Missing DeliveryTimeInformation PackageBillType.");
    need(/^\d{8}$/.test(str(obj(delivery?.Pickup)?.Date)), "Missing or invalid DeliveryTimeInformation Pickup Date.");
    if (international) {
      const invoice = obj(shipment.InvoiceLineTotal);
      need(
        str(invoice?.CurrencyCode).length === 3 && Number(str(invoice?.MonetaryValue)) >= 1,
        "Missing or invalid InvoiceLineTotal.",
      );
    }
  }
  const onRoute = servicesOnRoute(origin, destination);
  let services = onRoute;
  if (option.startsWith("rate")) {
    const code = str(obj(shipment.Service)?.Code);
    need(code, "Missing Service Code.");
    if (!onRoute.includes(code)) {
      throw new Refusal(400, "111100", "The requested service is unavailable between the selected locations.");
    }
    services = [code];
  }
  const optionCharges = serviceOptions(
    shipment,
    { origin, destination },
    option.startsWith("rate") ? services[0]! : null,
  );
  const negotiated = obj(shipment.ShipmentRatingOptions)?.NegotiatedRatesIndicator !== undefined;
  need(!negotiated || str(shipper.ShipperNumber).length === 6, "Missing or invalid shipper number (negotiated rates).");
  const zone = zoneOf(from, to);
  // Transit counts from the pickup date, which Rating.yaml (Pickup Date) lets a shipper set "up to 35 days into the
  // past and 60 days into the future", today when absent. The code of the refusal is ours: the spec names none.
  const today = originToday(from, state.now());
  const askedPickup = str(obj(obj(shipment.DeliveryTimeInformation)?.Pickup)?.Date);
  const pickupDay = askedPickup ? dayOf(askedPickup, today) : { day: today, offset: 0 };
  if (!pickupDay || pickupDay.offset < -35 || pickupDay.offset > 60) {
    throw new Refusal(400, "111503", "The pickup date must be within 35 days before and 60 days after today.");
  }
  const pickup = ymd(pickupDay.day);
  const residential = to.ResidentialAddressIndicator !== undefined;
  const taxes = shipment.TaxInformationIndicator !== undefined;
  const rated = services.map((code) => {
    const priced = price(code, parcels, zone, origin, {
      residential,
      negotiated,
      taxes,
      account: str(shipper.ShipperNumber),
      options: optionCharges(code),
    });
    const days = transitDays(code, zone, international);
    const arrival = addBusinessDays(pickupDay.day, days);
    const pounds = parcels.reduce((s, p) => s + Math.ceil(p.pounds), 0);
    return {
      Service: { Code: code, Description: SERVICE_NAMES.get(code)! },
      Zone: String(zone).padStart(3, "0"),
      BillingWeight: { UnitOfMeasurement: { Code: "LBS", Description: "Pounds" }, Weight: String(pounds) },
      ...priced.charges,
      ...(priced.negotiated ? { NegotiatedRateCharges: priced.negotiated } : {}),
      RatedPackage: parcels.map((p) => ({ Weight: p.pounds.toFixed(1) })),
      ...(code === "03" || code === "11"
        ? {}
        : { GuaranteedDelivery: { BusinessDaysInTransit: String(days), DeliveryByTime: "10:30 A.M." } }),
      ...(timeInTransit
        ? {
            TimeInTransit: {
              PickupDate: pickup,
              PackageBillType: str(obj(shipment.DeliveryTimeInformation)?.PackageBillType),
              ServiceSummary: {
                Service: { Description: SERVICE_NAMES.get(code) ?? "" },
                EstimatedArrival: {
                  Arrival: { Date: ymd(arrival), Time: "233000" },
                  BusinessDaysInTransit: String(days),
                  Pickup: { Date: pickup, Time: "190000" },
                  DayOfWeek: DAYS[arrival.getUTCDay()]!,
                },
              },
            },
          }
        : {}),
    };
  });
  return {
    status: 200,
    body: {
      RateResponse: {
        Response: {
          ResponseStatus: { Code: "1", Description: "Success" },
          Alert: negotiated
            ? [{ Code: "110971", Description: "Your invoice may vary from the displayed reference rates" }]
            : [],
          TransactionReference: {},
        },
        RatedShipment: rated,
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Ship

const LABEL_FORMATS = new Set(["GIF", "ZPL"]);
const PICKUP_AFTER_MS = 3 * 3_600_000;

function party(v: unknown, field: string, international: boolean) {
  const p = obj(v);
  need(p, `Missing ${field}.`);
  text(p.Name, 35, `${field} name`);
  text(p.AttentionName, 35, `${field} attention name`, international);
  const phone = str(obj(p.Phone)?.Number);
  need(!international || phone, `Missing ${field} phone number (required for an international shipment).`);
  need(/^\d{0,15}$/.test(phone), `Invalid ${field} phone number.`);
  text(p.EMailAddress, 50, `${field} email address`, false);
  return { party: p, address: address(p.Address, field, true) };
}

function payments(charges: unknown[], shipperNumber: string, international: boolean) {
  need(charges.length > 0, "Missing PaymentInformation ShipmentCharge.");
  const types = new Set<string>();
  for (const raw of charges) {
    const c = obj(raw);
    const type = str(c?.Type);
    need(type === "01" || type === "02", "Invalid ShipmentCharge Type.");
    need(!types.has(type), `Duplicate ShipmentCharge Type ${type}.`);
    types.add(type);
    need(type === "01" || international, "Duties and taxes (ShipmentCharge 02) are invalid for a domestic shipment.");
    const payers = ["BillShipper", "BillReceiver", "BillThirdParty"].filter((k) => c?.[k] !== undefined);
    need(payers.length === 1, `ShipmentCharge ${type} needs exactly one of BillShipper, BillReceiver, BillThirdParty.`);
    const payer = obj(c![payers[0]!]);
    const account = str(payer?.AccountNumber);
    need(account.length === 6, `Missing or invalid ${payers[0]} account number.`);
    if (payers[0] === "BillShipper")
      need(account === shipperNumber, "BillShipper account number must be the shipper number.");
    if (payers[0] === "BillThirdParty")
      need(str(obj(payer?.Address)?.CountryCode).length === 2, "Missing BillThirdParty country code.");
  }
  need(types.has("01"), "Missing ShipmentCharge Type 01 (transportation).");
}

function references(v: unknown, field: string): string[] {
  const refs = list(v);
  need(refs.length <= 5, `Too many ${field} reference numbers.`);
  return refs.map((r, i) => text(obj(r)?.Value, 35, `${field} reference number ${i + 1}`));
}

// Shipping.yaml, components.schemas.ShipmentServiceOptions_InternationalForms.properties.TermsOfShipment
// .description: its "Valid values" (a prose list, so no schema check finds a code outside it).
const TERMS_OF_SHIPMENT = new Set("CFR CIF CIP CPT DAF DDP DAP DEQ DES EXW FAS FCA FOB".split(" "));

function internationalForms(shipment: Record<string, unknown>) {
  const options = obj(shipment.ShipmentServiceOptions);
  const forms = obj(options?.InternationalForms);
  if (shipment.DocumentsOnlyIndicator !== undefined && !forms) return null;
  need(forms, "Missing InternationalForms (an invoice is required for this international shipment).");
  need(
    Array.isArray(forms.FormType) && forms.FormType.includes("01"),
    "Missing or invalid InternationalForms FormType.",
  );
  const products = list(forms.Product);
  need(products.length > 0 && products.length <= 100, "Missing or invalid InternationalForms Product.");
  products.forEach((raw, i) => {
    const p = obj(raw);
    const field = `Product ${i + 1}`;
    need(
      Array.isArray(p?.Description) && p.Description.length >= 1 && p.Description.length <= 3,
      `Missing ${field} description.`,
    );
    (p.Description as unknown[]).forEach((d) => text(d, 35, `${field} description`));
    const unit = obj(p.Unit);
    need(/^\d{1,7}$/.test(str(unit?.Number)), `Missing or invalid ${field} unit number.`);
    need(Number(str(unit?.Value)) > 0 && str(unit?.Value).length <= 19, `Missing or invalid ${field} unit value.`);
    need(str(obj(unit?.UnitOfMeasurement)?.Code), `Missing ${field} unit of measurement.`);
    text(p.CommodityCode, 15, `${field} commodity code`, false);
    text(p.PartNumber, 35, `${field} part number`, false);
    text(p.OriginCountryCode, 2, `${field} origin country code`, false);
  });
  need(/^\d{8}$/.test(str(forms.InvoiceDate)), "Missing or invalid InvoiceDate.");
  text(forms.InvoiceNumber, 35, "invoice number", false);
  text(forms.ReasonForExport, 20, "reason for export");
  need(/^[A-Z]{3}$/.test(str(forms.CurrencyCode)), "Missing or invalid invoice CurrencyCode.");
  const terms = text(forms.TermsOfShipment, 3, "terms of shipment", false);
  need(!terms || TERMS_OF_SHIPMENT.has(terms), `Invalid TermsOfShipment ${terms}.`);
  text(forms.DeclarationStatement, 550, "declaration statement", false);
  return forms;
}

// Shipping.yaml, components.schemas.AgentTaxIdentificationNumber_TaxIdentificationNumber: the "Valid Values" of
// IDNumberTypeCode and IDNumberPurposeCode, and the roles of GlobalTaxInformation_AgentTaxIdentificationNumber
// .AgentRole ("SHIP_FROM=20, CONSIGNEE=30"): prose lists, so no schema check finds a code outside them.
const ID_NUMBER_TYPE_CODES = new Set("0000 0001 0002 0005 1001 1002 1003 1004 1005 1006".split(" "));
const ID_NUMBER_PURPOSE_CODES = new Set(["00", "01", "02", "99"]);
const AGENT_ROLES = new Set(["20", "30"]);
// AgentRole's description: "When the value passed to the AgentRole parameter is 30, the value passed to the
// IDNumberTypeCode parameter must be 1002, 1005 or 0005."
const CONSIGNEE_TYPE_CODES = new Set(["1002", "1005", "0005"]);

function globalTaxInformation(shipment: Record<string, unknown>) {
  const info = obj(shipment.GlobalTaxInformation);
  if (!info) return;
  const agents = list(info.AgentTaxIdentificationNumber);
  // Shipment_GlobalTaxInformation: up to 4 agents ("maximum: 4"); each up to eight numbers.
  need(agents.length <= 4, "Too many AgentTaxIdentificationNumber entries.");
  for (const raw of agents) {
    const agent = obj(raw);
    const role = str(agent?.AgentRole);
    need(AGENT_ROLES.has(role), `Invalid AgentRole ${role}.`);
    const numbers = list(agent?.TaxIdentificationNumber);
    need(numbers.length <= 8, "Too many TaxIdentificationNumber entries for one agent.");
    for (const n of numbers) {
      const id = obj(n);
      const type = str(id?.IDNumberTypeCode);
      need(ID_NUMBER_TYPE_CODES.has(type), `Invalid IDNumberTypeCode ${type}.`);
      need(
        role !== "30" || CONSIGNEE_TYPE_CODES.has(type),
        `When AgentRole is 30, IDNumberTypeCode must be 1002, 1005 or 0005 (it is ${type}).`,
      );
      const purpose = str(id?.IDNumberPurposeCode).trim() || "00";
      need(ID_NUMBER_PURPOSE_CODES.has(purpose), `Invalid IDNumberPurposeCode ${purpose}.`);
      need(["0", "1"].includes(str(id?.IDNumberEncryptionIndicator)), "Invalid IDNumberEncryptionIndicator.");
      need(str(id?.IdentificationNumber).trim(), "Missing IdentificationNumber.");
    }
  }
}

async function invoicePdf(forms: Record<string, unknown>): Promise<string> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText(`COMMERCIAL INVOICE ${str(forms.InvoiceNumber)}`, { x: 50, y: 740, size: 14, font });
  list(forms.Product).forEach((p, i) => {
    const product = obj(p)!;
    const line = `${(product.Description as string[]).join(" ")} x${str(obj(product.Unit)?.Number)}`;
    page.drawText(line.replace(/[^\x20-\x7e]/g, "?"), { x: 50, y: 700 - i * 16, size: 10, font });
  });
  return Buffer.from(await doc.save()).toString("base64");
}

function serialFor(state: CarrierState): number {
  const next = ((state.data.get("ups:serial") as number | undefined) ?? 1_000_000) + 1;
  state.data.set("ups:serial", next);
  return next;
}

function place(a: Record<string, unknown>): Place {
  return {
    city: str(a.City).toUpperCase(),
    stateProvince: str(a.StateProvinceCode),
    postalCode: str(a.PostalCode),
    countryCode: str(a.CountryCode),
  };
}

async function ship(req: EmulatorRequest, state: CarrierState): Promise<EmulatorResponse> {
  const request = obj(obj(req.json)?.ShipmentRequest);
  need(request, "Missing ShipmentRequest.");
  need(
    ["validate", "nonvalidate"].includes(str(obj(request.Request)?.RequestOption)),
    "Missing or invalid RequestOption.",
  );
  const shipment = obj(request.Shipment);
  need(shipment, "Missing Shipment.");
  const shipperNumber = str(obj(shipment.Shipper)?.ShipperNumber);
  need(/^[A-Z0-9]{6}$/.test(shipperNumber), "Missing or invalid shipper number.");
  const originAddress = obj(obj(shipment.ShipFrom)?.Address ?? obj(shipment.Shipper)?.Address);
  const destinationAddress = obj(obj(shipment.ShipTo)?.Address);
  const origin = str(originAddress?.CountryCode);
  const destination = str(destinationAddress?.CountryCode);
  const international = crossesBorder(origin, destination);
  const shipper = party(shipment.Shipper, "shipper", international);
  const shipTo = party(shipment.ShipTo, "ship to", international);
  const shipFrom = shipment.ShipFrom === undefined ? shipper : party(shipment.ShipFrom, "ship from", international);
  payments(list(obj(shipment.PaymentInformation)?.ShipmentCharge), shipperNumber, international);
  const packages = list(shipment.Package);
  const parcels = parcelsOf(packages, "Packaging");
  const service = str(obj(shipment.Service)?.Code);
  need(service, "Missing Service Code.");
  if (!servicesOnRoute(origin, destination).includes(service)) {
    throw new Refusal(400, "111100", "The requested service is unavailable between the selected locations.");
  }

  // Shipping.yaml (ShipmentDate): "up to 7 days in the future with current date as day zero", on the origin's
  // calendar; a day already past is refused. The code of the refusal is ours: the spec names none.
  const today = originToday(originAddress, state.now());
  const shipmentDate = str(shipment.ShipmentDate);
  const shipDay = shipmentDate ? dayOf(shipmentDate, today) : { day: today, offset: 0 };
  if (!shipDay || shipDay.offset < 0 || shipDay.offset > 7) {
    throw new Refusal(400, "120503", "The shipment date must be today or up to 7 days ahead at the origin.");
  }

  const domesticRoute = new Set(["US/US", "PR/PR"]).has(`${origin}/${destination}`);
  const shipmentRefs = references(shipment.ReferenceNumber, "shipment");
  need(
    !domesticRoute || shipmentRefs.length === 0,
    "Shipment level reference numbers are invalid for US/US and PR/PR shipments.",
  );
  const packageRefs = packages.map((p, i) => references(obj(p)?.ReferenceNumber, `package ${i + 1}`));
  need(
    domesticRoute || packageRefs.every((r) => r.length === 0),
    "Package level reference numbers are valid only for US/US and PR/PR shipments.",
  );
  const description = text(shipment.Description, 50, "shipment description", false);
  const documentsOnly = shipment.DocumentsOnlyIndicator !== undefined;
  if (international)
    need(
      description || documentsOnly,
      "Missing shipment description of goods (required for an international shipment).",
    );
  const forms = international ? internationalForms(shipment) : null;
  globalTaxInformation(shipment);
  const invoiceLineTotal = obj(shipment.InvoiceLineTotal);
  if (origin === "US" && (destination === "CA" || destination === "PR")) {
    need(/^[A-Z]{3}$/.test(str(invoiceLineTotal?.CurrencyCode)), "Missing InvoiceLineTotal currency code.");
    need(
      /^\d{1,11}$/.test(str(invoiceLineTotal?.MonetaryValue)) && Number(invoiceLineTotal?.MonetaryValue) >= 1,
      "Missing or invalid InvoiceLineTotal monetary value.",
    );
  } else {
    need(!invoiceLineTotal, "InvoiceLineTotal is valid only from the US to Canada or Puerto Rico.");
  }

  const spec = obj(request.LabelSpecification);
  const format = str(obj(spec?.LabelImageFormat)?.Code).toUpperCase();
  need(format, "Missing LabelImageFormat Code.");
  need(
    LABEL_FORMATS.has(format),
    `Invalid LabelImageFormat Code ${format}: valid are GIF, ZPL, EPL and SPL (the emulator draws GIF and ZPL).`,
  );
  const stock = obj(spec?.LabelStockSize);
  need(str(stock?.Height) && str(stock?.Width), "Missing LabelStockSize.");

  const now = state.now();
  const numbers = packages.map(() => makeUpsTrackingNumber(shipperNumber, service, serialFor(state)));
  const optionCharges = serviceOptions(shipment, { origin, destination }, service);
  const negotiated = obj(shipment.ShipmentRatingOptions)?.NegotiatedRatesIndicator !== undefined;
  const priced = price(service, parcels, zoneOf(shipFrom.address, shipTo.address), origin, {
    residential: shipTo.address.ResidentialAddressIndicator !== undefined,
    negotiated,
    taxes: false,
    account: shipperNumber,
    options: optionCharges(service),
  });
  const serviceName = SERVICE_NAMES.get(service) ?? `UPS ${service}`;
  const sale: Sale = {
    shipmentId: numbers[0]!,
    trackingNumbers: numbers,
    soldAt: now.getTime(),
    voidedAt: null,
    service,
    serviceName,
    transitDays: transitDays(service, zoneOf(shipFrom.address, shipTo.address), international),
    origin: place(shipFrom.address),
    destination: place(shipTo.address),
    referenceNumbers: domesticRoute ? (packageRefs[0] ?? []) : shipmentRefs,
  };
  state.data.set(`ups:shipment:${sale.shipmentId}`, sale);
  for (const n of numbers) state.data.set(`ups:sale:${n}`, sale);

  const partyFacts = (p: Record<string, unknown>, a: Record<string, unknown>) => ({
    company_name: str(p.Name),
    person_name: str(p.AttentionName) || null,
    address_line1: str((a.AddressLine as string[])[0]),
    address_line2: str((a.AddressLine as string[])[1]) || null,
    city: str(a.City),
    state_code: str(a.StateProvinceCode),
    postal_code: str(a.PostalCode),
    country_code: str(a.CountryCode),
  });
  const packageResults = packages.map((raw, i) => {
    const weight = obj(obj(raw)?.PackageWeight)!;
    const facts = {
      trackingNumber: numbers[i]!,
      serviceName,
      shipper: partyFacts(shipFrom.party, shipFrom.address),
      recipient: partyFacts(shipTo.party, shipTo.address),
      weightText: `${str(weight.Weight)} ${str(obj(weight.UnitOfMeasurement)?.Code)}`,
      reference: (domesticRoute ? packageRefs[i]?.[0] : shipmentRefs[0]) ?? null,
      shipDate: shipDay.day.toISOString().slice(0, 10),
    };
    const image = format === "ZPL" ? zplLabel(facts) : gifLabel(facts);
    return {
      TrackingNumber: numbers[i],
      ShippingLabel: {
        ImageFormat: { Code: format, Description: format },
        GraphicImage: Buffer.from(image).toString("base64"),
      },
    };
  });
  const printInvoice = forms && forms.OverridePaperlessIndicator !== undefined;
  return {
    status: 200,
    body: {
      ShipmentResponse: {
        Response: {
          ResponseStatus: { Code: "1", Description: "Success" },
          TransactionReference: obj(obj(request.Request)?.TransactionReference) ?? {},
        },
        ShipmentResults: {
          ShipmentCharges: priced.charges,
          ...(priced.negotiated ? { NegotiatedRateCharges: priced.negotiated } : {}),
          BillingWeight: {
            UnitOfMeasurement: { Code: "LBS", Description: "Pounds" },
            Weight: String(parcels.reduce((s, p) => s + Math.ceil(p.pounds), 0)),
          },
          ShipmentIdentificationNumber: sale.shipmentId,
          PackageResults: packageResults,
          ...(printInvoice
            ? {
                Form: {
                  Code: "01",
                  Description: "All Requested International Forms",
                  Image: { ImageFormat: { Code: "PDF", Description: "PDF" }, GraphicImage: await invoicePdf(forms) },
                },
              }
            : {}),
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Void and track

// Accounts whose voids misbehave, as a shipper meets it at UPS when a package has been scanned already: the
// answer is a 200 whose packages say "0 = Not Voided" (Shipping.yaml, PackageLevelResults.Status.Code).
const NOT_VOIDED_ACCOUNT = "NOVOID";
// The first void of a shipment voids its first package only; a second void voids the rest.
const PARTIAL_VOID_ACCOUNT = "PARTVD";

function voidShipment(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const id = decodeURIComponent(req.path.split("/").pop()!);
  const sale = state.data.get(`ups:shipment:${id}`) as Sale | undefined;
  if (!sale) throw new Refusal(400, "190102", "No shipment found within the allowed void period");
  if (sale.voidedAt !== null) throw new Refusal(400, "190117", "The shipment has already been voided.");
  const now = state.now().getTime();
  if (now - sale.soldAt >= PICKUP_AFTER_MS) {
    throw new Refusal(400, "190101", "The shipment cannot be voided: UPS has already received the package.");
  }
  // A 1Z number carries the shipper's account in its characters 3 to 8.
  const account = sale.shipmentId.slice(2, 8);
  const attempts = ((state.data.get(`ups:void-attempts:${id}`) as number | undefined) ?? 0) + 1;
  state.data.set(`ups:void-attempts:${id}`, attempts);
  const results = sale.trackingNumbers.map((n, i) => {
    const refused = account === NOT_VOIDED_ACCOUNT || (account === PARTIAL_VOID_ACCOUNT && attempts === 1 && i > 0);
    return {
      TrackingNumber: n,
      Status: refused ? { Code: "0", Description: "Not Voided" } : { Code: "1", Description: "Voided" },
    };
  });
  const all = results.every((r) => r.Status.Code === "1");
  if (all) sale.voidedAt = now;
  return {
    status: 200,
    body: {
      VoidShipmentResponse: {
        Response: { ResponseStatus: { Code: "1", Description: "Success" } },
        // Shipping.yaml lists no summary codes: the emulator's says "1" only when every package is voided.
        SummaryResult: {
          Status: all ? { Code: "1", Description: "Voided" } : { Code: "0", Description: "Not Voided" },
        },
        PackageLevelResults: results,
      },
    },
  };
}

function track(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  need(
    str(req.headers.transid) && str(req.headers.transactionsrc),
    "Missing transId or transactionSrc header.",
    "TV1001",
  );
  const inquiry = decodeURIComponent(req.path.split("/").pop()!).toUpperCase();
  if (!isValidUpsTrackingNumber(inquiry)) throw new Refusal(400, "TV1002", "Invalid inquiry number");
  const sale = state.data.get(`ups:sale:${inquiry}`) as Sale | undefined;
  if (!sale) {
    return {
      status: 200,
      body: {
        trackResponse: {
          shipment: [
            {
              inquiryNumber: inquiry,
              package: [],
              warnings: [{ code: "TW0001", message: "Tracking Information Not Found" }],
            },
          ],
        },
      },
    };
  }
  return {
    status: 200,
    body: {
      trackResponse: {
        shipment: [
          { inquiryNumber: inquiry, package: [trackedPackage(sale, inquiry, state.now().getTime())], userRelation: [] },
        ],
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------

/** A call whose token was issued to a client id starting with "blocked": UPS's 403 Blocked Merchant. */
function blocked(req: EmulatorRequest, state: CarrierState): boolean {
  const bearer = /^Bearer (.+)$/i.exec(str(req.headers.authorization))?.[1];
  return bearer !== undefined && str(state.data.get(`ups:client:${bearer}`)).startsWith("blocked");
}

const ROUTES: [string, RegExp, Operation][] = [
  ["POST", /^\/security\/v1\/oauth\/token$/, "token"],
  ["POST", /^\/api\/rating\/v\d+\/(rate|shop|ratetimeintransit|shoptimeintransit)$/i, "rate"],
  ["POST", /^\/api\/shipments\/v\d+\/ship$/, "ship"],
  ["DELETE", /^\/api\/shipments\/v\d+\/void\/cancel\/[^/]+$/, "void"],
  ["GET", /^\/api\/track\/v1\/details\/[^/]+$/, "track"],
  ["POST", /^\/api\/addressvalidation\/v\d+\/[123]$/, "address_validation"],
];

/** UPS's files (where they contradict themselves: specs/ups/errata.json). */
const UPS_CONTRACT: CarrierContract = {
  files: [
    "ups/OAuthClientCredentials.yaml",
    "ups/Rating.yaml",
    "ups/Shipping.yaml",
    "ups/Tracking.yaml",
    "ups/AddressValidation.yaml",
  ],
  // UPS's code for a request its schema refuses is not published; 120001 is the emulator's, as for missing fields.
  refuse: (problems) => ({
    status: 400,
    body: {
      response: { errors: problems.map((p) => ({ code: "120001", message: `Invalid request: ${problemText(p)}` })) },
    },
  }),
};

export const upsEmulator: EmulatedCarrier = {
  name: "ups",
  contract: UPS_CONTRACT,
  // UPS's tokens live about four hours ("expires_in": "14399").
  tokenTtlSeconds: 14_399,
  operationOf(method, path) {
    return ROUTES.find(([m, pattern]) => m === method && pattern.test(path))?.[2] ?? null;
  },
  async handle(req, state) {
    try {
      const operation = this.operationOf(req.method, req.path);
      if (operation !== "token" && blocked(req, state)) {
        // Every UPS API answers 403 "Blocked Merchant" (its `responses.403.description`); the body's code and text
        // are the emulator's own, as UPS publishes none.
        return { status: 403, body: errorBody("403", "Blocked Merchant: this account may not use this API.") };
      }
      switch (operation) {
        case "token":
          return token(req, state);
        case "rate":
          return rate(req, state);
        case "ship":
          return await ship(req, state);
        case "void":
          return voidShipment(req, state);
        case "track":
          return track(req, state);
        case "address_validation":
          return addressValidation(req);
        default:
          return { status: 404, body: errorBody("404", "Resource not found") };
      }
    } catch (error) {
      if (error instanceof Refusal) return { status: error.status, body: errorBody(error.code, error.message) };
      throw error;
    }
  },
  errorBody(status, code, message) {
    // What UPS answers a call whose bearer token it does not accept.
    if (status === 401) return errorBody("250002", "Invalid Authentication Information.");
    return errorBody(code, message);
  },
};
