import { randomBytes } from "node:crypto";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { Address } from "@/lib/carriers/types";
import { localDateTime, originTimeZone } from "@/lib/carriers/ship-date";
import type { LabelContent } from "@/lib/labels/content";
import { renderPdfLabel } from "@/lib/labels/pdf";
import { renderZplLabel } from "@/lib/labels/zpl";
import { problemText } from "./contract";
import { uspsAddress } from "./usps-address";
import type {
  CarrierContract,
  CarrierState,
  EmulatedCarrier,
  EmulatorRequest,
  EmulatorResponse,
  Operation,
} from "./server";

/**
 * USPS in the carrier emulator: the OAuth token endpoint, payment authorization, shipping options, domestic and
 * international labels (and their cancellation) and tracking, speaking the v3 wire format (test/emulator/specs/usps;
 * docs/usps.md). The files judge every request and answer (server.ts); the rules USPS states only in prose, or that no
 * file states, are checked here, each saying where it comes from.
 *
 * - Token (no file; docs/usps.md, "Credentials"): form or JSON with grant_type client_credentials, client_id,
 *   client_secret; a client id starting with "invalid" is RFC 6749's 401 invalid_client. Tokens live eight hours.
 * - Payment authorization: PAYER and LABEL_OWNER roles, each with CRID, MID, account type and number; an account
 *   number starting with "REFUSED" is refused (403, the emulator's code). Payment tokens live eight hours
 *   (payments.yaml) and labels and cancellations refuse any other (401).
 * - Options: a tariff by mail class, zone (from the ZIPs' first digits) and weight; RETAIL above COMMERCIAL above
 *   CONTRACT; domestic answers carry a commitment ("2 Days") counted from the mailing date.
 * - Labels: 4×6 PDF or ZPL drawn from the request, as the vendor JSON when asked for
 *   `application/vnd.usps.labels+json` (else the multipart answer's JSON form), with a receipt page on
 *   `SEPARATE_PAGE`; IMpb (22 digits) or S10 numbers with their check digits; an `X-Idempotency-Key` seen before
 *   answers the same label again.
 * - Cancel: `CANCELED` until the label's Shipping Services File is written (10 minutes after the sale, by the
 *   emulator's clock), `DISPUTED` afterwards with the CRID's dispute id of the day; a second cancellation of a
 *   disputed label the same day is refused, as the file says, and of a cancelled one answers CANCELED again.
 * - Tracking: sold numbers move with time since the sale (GX, 03 after 2 h, … 01 after 2 days); a label cancelled
 *   before its acceptance scan never moves. References JOURNEY-ATTEMPT, JOURNEY-DELAY, JOURNEY-RETURN and
 *   JOURNEY-LOST end otherwise. Unknown numbers are 404, text that is no USPS number 400.
 *
 * USPS's error inventory is not among the vendored files; the codes the emulator gives its own refusals are its own.
 */

type Json = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const obj = (v: unknown): Json | undefined =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const round2 = (n: number) => Math.round(n * 100) / 100;

const TOKEN_TTL_S = 8 * 3600;
const PAYMENT_TTL_MS = 8 * 3600_000;
/** When the label's Shipping Services File is written: from then on a cancellation is a refund request. */
const SSF_AFTER_MS = 10 * 60_000;
const VENDOR_JSON = "application/vnd.usps.labels+json";

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

const TITLES = new Map([
  [400, "Bad Request"],
  [401, "Unauthorized"],
  [403, "Forbidden"],
  [404, "Not Found"],
  [429, "Too Many Requests"],
  [503, "Service Unavailable"],
]);

function errorBody(status: number, code: string, detail: string, field: string | null = null, api = "/v3") {
  const title = TITLES.get(status) ?? "Error";
  return {
    apiVersion: api,
    error: {
      code: String(status),
      message: title,
      errors: [{ status: String(status), code, title, detail, ...(field ? { source: { parameter: field } } : {}) }],
    },
  };
}

function need(condition: unknown, message: string, field: string | null = null): asserts condition {
  if (!condition) throw new Refusal(400, "EMU-400", message, field);
}

interface Sale {
  trackingNumber: string;
  international: boolean;
  soldAt: number;
  reference: string | null;
  mailClass: string;
  from: Json;
  to: Json;
  cancel: { at: number; day: string; answer: Json } | null;
}

function sales(state: CarrierState): Map<string, Sale> {
  let m = state.data.get("sales") as Map<string, Sale> | undefined;
  if (!m) state.data.set("sales", (m = new Map()));
  return m;
}

function byKey(state: CarrierState): Map<string, { body: string; answer: EmulatorResponse }> {
  let m = state.data.get("idempotency") as Map<string, { body: string; answer: EmulatorResponse }> | undefined;
  if (!m) state.data.set("idempotency", (m = new Map()));
  return m;
}

/** Payment tokens issued: when each expires, and the CRID it names (a dispute is per CRID and day). */
function paymentTokens(state: CarrierState): Map<string, { expires: number; crid: string }> {
  let m = state.data.get("payment") as Map<string, { expires: number; crid: string }> | undefined;
  if (!m) state.data.set("payment", (m = new Map()));
  return m;
}

function serial(state: CarrierState): number {
  const n = ((state.data.get("serial") as number | undefined) ?? 0) + 1;
  state.data.set("serial", n);
  return n;
}

// ---------------------------------------------------------------------------------------------------- tokens

function token(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const j = obj(req.json);
  const field = (k: string) => req.form?.get(k) ?? str(j?.[k]);
  if (field("grant_type") !== "client_credentials") {
    return {
      status: 400,
      body: { error: "unsupported_grant_type", error_description: "grant_type must be client_credentials." },
    };
  }
  const id = field("client_id");
  if (!id || !field("client_secret") || id.startsWith("invalid")) {
    return { status: 401, body: { error: "invalid_client", error_description: "Client authentication failed." } };
  }
  const issued = state.issueToken();
  return {
    status: 200,
    body: {
      access_token: issued.token,
      token_type: "Bearer",
      issued_at: state.now().getTime(),
      expires_in: issued.expiresInSeconds,
      status: "approved",
      scope: "addresses international-prices prices shipments tracking labels payments international-labels",
      issuer: "api.usps.com",
      client_id: id,
      application_name: "Carrier emulator",
    },
  };
}

function payment(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const roles = list(obj(req.json)?.roles).map(obj);
  // payments.yaml: the token must name who pays and who owns the label.
  for (const name of ["PAYER", "LABEL_OWNER"]) {
    const role = roles.find((r) => r?.roleName === name);
    need(role, `roles: a ${name} role is required for labels`, "roles");
    for (const k of ["CRID", "MID", "accountType", "accountNumber"]) {
      need(str(role[k]), `roles.${name}.${k} is required`, `roles.${k}`);
    }
    if (str(role.accountNumber).startsWith("REFUSED")) {
      throw new Refusal(
        403,
        "EMU-PAY-403",
        `The payment account ${str(role.accountNumber)} is not authorized for CRID ${str(role.CRID)}.`,
      );
    }
  }
  const tokenValue = randomBytes(24).toString("base64url");
  const crid = str(roles.find((r) => r?.roleName === "PAYER")?.CRID);
  paymentTokens(state).set(tokenValue, { expires: state.now().getTime() + PAYMENT_TTL_MS, crid });
  return { status: 200, body: { paymentAuthorizationToken: tokenValue, roles } };
}

/** The CRID of the request's payment token; a token not issued, or expired, is a 401. */
function requirePayment(req: EmulatorRequest, state: CarrierState): string {
  const header = req.headers["x-payment-authorization-token"];
  const value = Array.isArray(header) ? header[0] : header;
  const issued = value ? paymentTokens(state).get(value) : undefined;
  if (!issued || issued.expires <= state.now().getTime()) {
    throw new Refusal(401, "EMU-PAY-401", "The payment authorization token is invalid or expired.");
  }
  return issued.crid;
}

// ---------------------------------------------------------------------------------------------------- prices

const DOMESTIC = [
  // mail class, base, per lb, per zone, days (zone 1..8 → days), name
  ["USPS_GROUND_ADVANTAGE", 5.2, 0.55, 0.45, [2, 2, 3, 3, 4, 4, 5, 5]],
  ["PRIORITY_MAIL", 8.9, 0.9, 0.7, [1, 2, 2, 2, 3, 3, 3, 3]],
  ["PRIORITY_MAIL_EXPRESS", 28.5, 1.8, 1.5, [1, 1, 1, 2, 2, 2, 2, 2]],
  ["PARCEL_SELECT", 6.1, 0.5, 0.5, [2, 3, 3, 4, 5, 6, 7, 8]],
  ["MEDIA_MAIL", 4.1, 0.7, 0, [2, 3, 4, 5, 6, 7, 8, 8]],
  ["LIBRARY_MAIL", 3.9, 0.6, 0, [2, 3, 4, 5, 6, 7, 8, 8]],
  ["BOUND_PRINTED_MATTER", 4.4, 0.4, 0.3, [2, 3, 4, 5, 6, 7, 8, 8]],
] as const;

const INTERNATIONAL = [
  ["FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE", 16.5, 3.1, 4],
  ["PRIORITY_MAIL_INTERNATIONAL", 44.0, 4.8, 70],
  ["PRIORITY_MAIL_EXPRESS_INTERNATIONAL", 62.0, 5.9, 66],
  ["GLOBAL_EXPRESS_GUARANTEED", 95.0, 7.5, 70],
] as const;

const PRICE_FACTOR = new Map([
  ["RETAIL", 1.15],
  ["COMMERCIAL", 1],
  ["CONTRACT", 0.9],
]);

const EXTRA_NAMES = new Map([
  [920, "USPS Tracking"],
  [921, "Signature Confirmation"],
  [922, "Adult Signature Required 21 or Over"],
  [925, "Priority Mail Express Merchandise Insurance"],
  [930, "Insurance <= $500"],
  [931, "Insurance > $500"],
  [981, "Signature Requested"],
]);

/** The extra services asked for, priced (insurance by the declared `packageValue`); unknown codes are refused. */
function extrasOf(codes: unknown, value: unknown, cls: string): { code: number; name: string; price: number }[] {
  return list(codes).map((raw) => {
    const code = Number(raw);
    const name = EXTRA_NAMES.get(code);
    need(name, `extra service ${code} is not sold by the emulator`, "packageDescription.extraServices");
    // The ExtraService list says so: "981 - Signature Requested (PRIORITY_MAIL_EXPRESS only)"; 925 is its insurance.
    if (code === 981 || code === 925) {
      need(
        cls === "PRIORITY_MAIL_EXPRESS" || cls === "ALL" || cls === "ALL_OUTBOUND",
        `${code} is for PRIORITY_MAIL_EXPRESS only`,
        "packageDescription.extraServices",
      );
    }
    const insured = Number(value) || 0;
    const price =
      code === 921
        ? 4.1
        : code === 922
          ? 8.3
          : code === 930 || code === 931
            ? round2(2.9 + 1.35 * Math.ceil(Math.max(0, insured - 100) / 100))
            : 0;
    return { code, name, price };
  });
}

function zone(from: string, to: string): number {
  const d = Math.abs(Number(from[0] ?? 0) - Number(to[0] ?? 0));
  return Math.min(8, Math.max(1, d + 1));
}

function addBusinessDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
  }
  return d.toISOString().slice(0, 10);
}

function today(state: CarrierState): string {
  return state.now().toISOString().slice(0, 10);
}

/**
 * `MailingDate`: "today plus 0 to 30 days in advance" for prices (shipping-options.yaml), "0 to 7 days" for labels
 * (domestic-labels.yaml, international-labels.yaml); the refusal's code is ours.
 */
function mailingDate(pkg: Json, state: CarrierState, field: string, maxDays: number): string {
  const date = str(pkg.mailingDate).slice(0, 10) || today(state);
  const days = (Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today(state)}T00:00:00Z`)) / 86_400_000;
  // One day of grace back: the shipper's calendar may still be on yesterday when UTC is on today.
  need(days >= -1 && days <= maxDays, `mailingDate must be today or up to ${maxDays} days ahead`, field);
  return date;
}

function rate(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const body = obj(req.json)!;
  const pkg = obj(body.packageDescription)!;
  const date = mailingDate(pkg, state, "packageDescription.mailingDate", 30);
  const weight = Number(pkg.weight);
  const pricing = obj(list(body.pricingOptions)[0]) ?? {};
  const priceType = str(pricing.priceType) || "RETAIL";
  const factor = PRICE_FACTOR.get(priceType) ?? 1;
  const account = obj(pricing.paymentAccount);
  const answerPricing = { priceType, ...(account ? { paymentAccount: account } : {}) };
  const wanted = str(pkg.mailClass);
  if (typeof body.destinationCountryCode === "string") {
    const shippingOptions = INTERNATIONAL.filter(
      ([cls, , , max]) => weight <= max && (wanted === "ALL" || wanted === cls),
    ).map(([cls, base, perLb]) => {
      const price = round2((base + perLb * Math.ceil(weight)) * factor);
      return {
        mailClass: cls,
        rateOptions: [
          {
            // No extra services are asked for abroad, so no totalPrice (shipping-options.yaml RateOptions).
            totalBasePrice: price,
            rates: [
              {
                description: cls.replace(/_/g, " "),
                price,
                weight,
                priceType,
                mailClass: cls,
                SKU: `DXXX${cls.length}XXXXX00000`,
                fees: [],
              },
            ],
            extraServices: [],
          },
        ],
      };
    });
    return {
      status: 200,
      body: {
        originZIPCode: str(body.originZIPCode),
        destinationCountryCode: str(body.destinationCountryCode),
        pricingOptions: [{ ...answerPricing, shippingOptions }],
      },
    };
  }
  const extras = extrasOf(pkg.extraServices, pkg.packageValue, wanted);
  const extrasTotal = round2(extras.reduce((sum, e) => sum + e.price, 0));
  const z = zone(str(body.originZIPCode), str(body.destinationZIPCode));
  const nonMachinable = Math.max(Number(pkg.length), Number(pkg.width), Number(pkg.height)) > 22 || weight > 25;
  const shippingOptions = DOMESTIC.filter(([cls]) => ["ALL", "ALL_OUTBOUND", cls].includes(wanted)).map(
    ([cls, base, perLb, perZone, days]) => {
      const price = round2((base + perLb * Math.ceil(weight) + perZone * (z - 1)) * factor);
      const commitmentDays = days[z - 1]!;
      const option = (category: string, surcharge: number) => {
        const fees = surcharge ? [{ name: "Nonmachinable Surcharge", SKU: "DXQ0XXXXXXXXXX", price: surcharge }] : [];
        return {
          commitment: {
            name: `${commitmentDays} Day${commitmentDays > 1 ? "s" : ""}`,
            expectedDeliveryDate: addBusinessDays(date, commitmentDays),
            guaranteedDelivery: cls === "PRIORITY_MAIL_EXPRESS",
          },
          // shipping-options.yaml: totalBasePrice is "the price of the rate, fees, and pound postage"; totalPrice (it
          // and the extra services) is "only returned when `extraServices` are passed in the request".
          totalBasePrice: round2(price + surcharge),
          ...(extras.length > 0 ? { totalPrice: round2(price + surcharge + extrasTotal) } : {}),
          rates: [
            {
              description: `${cls.replace(/_/g, " ")} ${category}`,
              productName: cls.replace(/_/g, " "),
              price,
              zone: String(z).padStart(2, "0"),
              weight,
              priceType,
              processingCategory: category,
              rateIndicator: "SP",
              mailClass: cls,
              SKU: `DXXX${z}XXXXX0${Math.ceil(weight)}`,
              fees,
            },
          ],
          extraServices: extras.map((e) => ({
            extraService: String(e.code),
            name: e.name,
            price: e.price,
            SKU: `DX${e.code}XXXXXXXXXX`,
          })),
        };
      };
      // A parcel USPS cannot sort by machine is priced NON_MACHINABLE only; a machinable one is offered both ways.
      const rateOptions = nonMachinable
        ? [option("NON_MACHINABLE", 4.2)]
        : [option("MACHINABLE", 0), option("NON_MACHINABLE", 4.2)];
      return { mailClass: cls, rateOptions };
    },
  );
  return {
    status: 200,
    body: {
      originZIPCode: str(body.originZIPCode),
      destinationZIPCode: str(body.destinationZIPCode),
      pricingOptions: [{ ...answerPricing, shippingOptions }],
    },
  };
}

// ---------------------------------------------------------------------------------------------------- labels

/** GS1 mod 10 over the data digits (docs/carriers.md, "Tracking numbers"): weights 3, 1, … from the right. */
function mod10(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

export function isValidImpb(tn: string): boolean {
  return /^\d{20,34}$/.test(tn) && mod10(tn.slice(0, -1)) === Number(tn.slice(-1));
}

/** UPU S10: weights 8 6 4 2 3 5 9 7 over the serial; 11 − sum mod 11, 10 → 0 and 11 → 5. */
function s10Check(serial8: string): number {
  const w = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = [...serial8].reduce((s, d, i) => s + Number(d) * w[i]!, 0);
  const c = 11 - (sum % 11);
  return c === 10 ? 0 : c === 11 ? 5 : c;
}

export function isValidS10(tn: string): boolean {
  const m = /^[A-Z]{2}(\d{8})(\d)US$/.exec(tn);
  return m !== null && s10Check(m[1]!) === Number(m[2]);
}

function impb(state: CarrierState, mid: string): string {
  // Service type 055 (Priority Mail with tracking) after the GS1 application identifier 92, the MID, a serial.
  const data = `92055${mid.padStart(9, "0").slice(-9)}${String(serial(state)).padStart(7, "0")}`;
  return data + mod10(data);
}

function s10(state: CarrierState, cls: string): string {
  const prefix =
    cls === "PRIORITY_MAIL_EXPRESS_INTERNATIONAL" ? "EC" : cls === "PRIORITY_MAIL_INTERNATIONAL" ? "CP" : "LX";
  const n = String(10_000_000 + serial(state)).slice(-8);
  return `${prefix}${n}${s10Check(n)}US`;
}

function partial(a: Json, country: string): Partial<Address> {
  return {
    person_name: [str(a.firstName), str(a.lastName)].filter(Boolean).join(" ") || null,
    company_name: str(a.firm) || null,
    address_line1: str(a.streetAddress),
    address_line2: str(a.secondaryAddress) || null,
    city: str(a.city),
    state_code: str(a.state) || str(a.province),
    postal_code: str(a.ZIPCode) || str(a.postalCode),
    country_code: country,
  };
}

function labelContent(
  tn: string,
  cls: string,
  from: Json,
  to: Json,
  country: string,
  weight: number,
  date: string,
): LabelContent {
  const full = (a: Partial<Address>): Address => ({
    person_name: a.person_name ?? null,
    company_name: a.company_name ?? null,
    address_line1: a.address_line1 ?? "",
    address_line2: a.address_line2 ?? null,
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
  const recipient = full(partial(to, country));
  return {
    carrierName: "USPS",
    serviceName: cls.replace(/_/g, " "),
    trackingNumber: tn,
    shipper: full(partial(from, "US")),
    recipient,
    weightText: `${weight} LB`,
    reference: null,
    shipDate: date,
    barcodeValue: tn,
    routingText: `${country} ${recipient.postal_code}`.trim(),
    footerText: "CARRIER EMULATOR - NOT A REAL USPS LABEL",
  };
}

async function receiptPdf(tn: string, postage: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText(`USPS RECEIPT ${tn}`, { x: 50, y: 740, size: 14, font });
  page.drawText(`Postage $${postage.toFixed(2)}`, { x: 50, y: 710, size: 11, font });
  return doc.save();
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** Limits the label files state in prose (mail class descriptions): the emulator's own refusal codes. */
const MAX_POUNDS = new Map([
  ["USPS_GROUND_ADVANTAGE", 70],
  ["PRIORITY_MAIL", 70],
  ["PRIORITY_MAIL_EXPRESS", 70],
  ["PARCEL_SELECT", 70],
  ["MEDIA_MAIL", 70],
  ["LIBRARY_MAIL", 70],
  ["BOUND_PRINTED_MATTER", 15],
  ["FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE", 4],
  ["PRIORITY_MAIL_INTERNATIONAL", 70],
  ["PRIORITY_MAIL_EXPRESS_INTERNATIONAL", 66],
]);

async function label(req: EmulatorRequest, state: CarrierState, international: boolean): Promise<EmulatorResponse> {
  requirePayment(req, state);
  const keyHeader = req.headers["x-idempotency-key"];
  const key = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader;
  // A key is one purchase at one endpoint: the same key at the other label API is another request. domestic-labels.yaml:
  // "resubmitted with an identical request payload, the API will return the existing label"; another payload under a
  // key already used is refused (the emulator's code: the file names none).
  const slot = key ? `${req.path} ${key}` : null;
  const seen = slot ? byKey(state).get(slot) : undefined;
  if (seen) {
    need(seen.body === req.body, "X-Idempotency-Key was already used with another request", "X-Idempotency-Key");
    return seen.answer;
  }
  const body = obj(req.json)!;
  const pkg = obj(body.packageDescription)!;
  const from = obj(body.fromAddress)!;
  const to = obj(body.toAddress)!;
  const image = obj(body.imageInfo) ?? {};
  const cls = str(pkg.mailClass);
  const weight = Number(pkg.weight);
  need(
    weight <= (MAX_POUNDS.get(cls) ?? 70),
    `${cls} takes at most ${MAX_POUNDS.get(cls)} lb`,
    "packageDescription.weight",
  );
  need(str(from.ZIPCode), "fromAddress.ZIPCode is required", "fromAddress.ZIPCode");
  need(
    str(from.streetAddress) && str(from.city) && str(from.state),
    "fromAddress needs a street, a city and a state",
    "fromAddress",
  );
  const date = mailingDate(pkg, state, "packageDescription.mailingDate", 7);
  const country = international ? str(to.countryISOAlpha2Code).toUpperCase() : "US";
  if (!international) {
    need(
      str(to.ZIPCode) && str(to.streetAddress) && str(to.city),
      "toAddress needs a street, a city and a ZIP Code",
      "toAddress",
    );
  } else {
    const customs = obj(body.customsForm)!;
    need(list(customs.contents).length > 0, "customsForm.contents needs a line", "customsForm.contents");
  }
  const imageType = str(image.imageType) || "PDF";
  need(
    ["PDF", "ZPL203DPI"].includes(imageType),
    `imageType ${imageType} is not drawn by the emulator`,
    "imageInfo.imageType",
  );
  const tn = international ? s10(state, cls) : impb(state, "900000001");
  const content = labelContent(tn, cls, from, to, country, weight, date);
  const labelBytes =
    imageType === "PDF" ? await renderPdfLabel(content) : new TextEncoder().encode(renderZplLabel(content));
  const z = international ? 9 : zone(str(from.ZIPCode), str(to.ZIPCode));
  const base = international
    ? (INTERNATIONAL.find(([c]) => c === cls)?.[1] ?? 40) + 4 * Math.ceil(weight)
    : (DOMESTIC.find(([c]) => c === cls)?.[1] ?? 6) + 0.6 * Math.ceil(weight) + 0.5 * (z - 1);
  const nonMachinable = str(pkg.processingCategory) === "NON_MACHINABLE";
  const fees = nonMachinable ? [{ name: "Nonmachinable Surcharge", SKU: "DXQ0XXXXXXXXXX", price: 4.2 }] : [];
  const extras = extrasOf(pkg.extraServices, obj(pkg.packageOptions)?.packageValue, cls);
  // domestic-labels.yaml `physicalSignatureRequired`: "required to include signature extra service code values such
  // as … 921, 922, … 925, 931 … 981"; the refusal's code is the emulator's.
  if (extras.some((e) => [921, 922, 925, 931, 981].includes(e.code))) {
    need(
      pkg.physicalSignatureRequired === true,
      "physicalSignatureRequired is required with a signature extra service",
      "packageDescription.physicalSignatureRequired",
    );
  }
  const extraServices = extras.map((e) => ({ name: e.name, price: e.price, SKU: `DX${e.code}XXXXXXXXXX` }));
  // "Amount of Postage Required, does not include insurance or other extra service fees" (LabelMetadata.postage).
  const postage = round2(base + (nonMachinable ? 4.2 : 0));
  const refs = list(pkg.customerReference).map((r) => str(obj(r)?.referenceNumber));
  sales(state).set(tn, {
    trackingNumber: tn,
    international,
    soldAt: state.now().getTime(),
    reference: refs[0] || null,
    mailClass: cls,
    from,
    to,
    cancel: null,
  });
  const accept = str(req.headers.accept);
  const vendor = accept.includes(VENDOR_JSON);
  let answer: EmulatorResponse;
  if (international) {
    const metadata = {
      internationalTrackingNumber: tn,
      postage,
      weightUOM: "lb",
      weight,
      mailingDate: date,
      fees,
      extraServices: [],
    };
    answer = vendor
      ? { status: 201, headers: { "content-type": VENDOR_JSON }, body: { ...metadata, labelImage: b64(labelBytes) } }
      : { status: 201, body: { labelMetadata: metadata, labelImage: b64(labelBytes) } };
  } else {
    const days = (DOMESTIC.find(([c]) => c === cls)?.[4] ?? [3])[Math.min(7, z - 1)] ?? 3;
    const metadata = {
      trackingNumber: tn,
      routingInformation: `420${str(to.ZIPCode)}`,
      SKU: `DXXX${z}XXXXX0${Math.ceil(weight)}`,
      postage,
      extraServices,
      zone: String(z).padStart(2, "0"),
      mailingDate: `${date}T00:00:00Z`,
      commitment: { name: `${days} Day${days > 1 ? "s" : ""}`, expectedDeliveryDate: addBusinessDays(date, days) },
      weightUOM: "lb",
      weight,
      fees,
    };
    const receipt = str(image.receiptOption) === "SEPARATE_PAGE" ? b64(await receiptPdf(tn, postage)) : undefined;
    answer = vendor
      ? {
          status: 200,
          headers: { "content-type": VENDOR_JSON },
          body: { ...metadata, labelImage: b64(labelBytes), ...(receipt ? { receiptImage: receipt } : {}) },
        }
      : {
          status: 200,
          body: { labelMetadata: metadata, labelImage: b64(labelBytes), ...(receipt ? { receiptImage: receipt } : {}) },
        };
  }
  if (slot) byKey(state).set(slot, { body: req.body, answer });
  return answer;
}

/**
 * domestic-labels.yaml (DELETE /label/{trackingNumber}): "The system will only give one unique disputeId per customer
 * reference ID (CRID) per day. Duplicate submissions of the same label, for the same CRID, on the same day, will be
 * rejected." The rejection's code and words are the emulator's: the file names none. A label cancelled before its
 * Shipping Services File is answered CANCELED again.
 */
function cancel(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const crid = requirePayment(req, state);
  const tn = decodeURIComponent(req.path.split("/").pop()!).toUpperCase();
  const sale = sales(state).get(tn);
  if (!sale) throw new Refusal(400, "EMU-LBL-404", "Label not found for this tracking number.", "trackingNumber");
  const now = state.now().getTime();
  const day = state.now().toISOString().slice(0, 10);
  if (sale.cancel) {
    if (sale.cancel.answer.status === "DISPUTED" && sale.cancel.day === day) {
      throw new Refusal(
        400,
        "EMU-LBL-DUP",
        "A refund request for this order has already been submitted today",
        "trackingNumber",
      );
    }
    return { status: 200, body: sale.cancel.answer };
  }
  const billed = now - sale.soldAt >= SSF_AFTER_MS;
  let answer: Json = { trackingNumber: tn, status: "CANCELED" };
  if (billed) {
    const disputes = (state.data.get("disputes") as Map<string, string> | undefined) ?? new Map<string, string>();
    state.data.set("disputes", disputes);
    const id = disputes.get(`${crid} ${day}`) ?? String(100_000 + serial(state));
    disputes.set(`${crid} ${day}`, id);
    answer = { trackingNumber: tn, status: "DISPUTED", disputeId: id };
  }
  sale.cancel = { at: now, day, answer };
  return { status: 200, body: answer };
}

// ---------------------------------------------------------------------------------------------------- tracking

/** What happens to a parcel, hours after its sale: the usual trip, or a journey's end. */
const TRIP: [number, string, string, "origin" | "destination"][] = [
  [0, "GX", "Shipping Label Created, USPS Awaiting Item", "origin"],
  [2, "03", "USPS in possession of item", "origin"],
  [5, "SF", "Departed Post Office", "origin"],
  [8, "10", "Arrived at USPS Regional Origin Facility", "origin"],
  [14, "T1", "Departed USPS Regional Facility", "origin"],
  [24, "A1", "Arrived at USPS Regional Facility", "destination"],
  [36, "07", "Arrived at Post Office", "destination"],
  [40, "OF", "Out for Delivery", "destination"],
];
const ENDINGS = new Map<string, [number, string, string][]>([
  ["", [[46, "01", "Delivered, In/At Mailbox"]]],
  [
    "JOURNEY-ATTEMPT",
    [
      [46, "02", "Notice Left (No Authorized Recipient Available)"],
      [70, "01", "Delivered, Individual Picked Up at Post Office"],
    ],
  ],
  [
    "JOURNEY-DELAY",
    [
      [46, "08", "Missent"],
      [90, "01", "Delivered, In/At Mailbox"],
    ],
  ],
  [
    "JOURNEY-RETURN",
    [
      [46, "02", "Notice Left (No Authorized Recipient Available)"],
      [60, "09", "Return to Sender"],
    ],
  ],
  ["JOURNEY-LOST", [[120, "11", "Dead Letter"]]],
]);
const CATEGORY = new Map([
  ["GX", "Pre-Shipment"],
  ["03", "Accepted"],
  ["OF", "Out for Delivery"],
  ["01", "Delivered"],
  ["02", "Delivery Attempt"],
  ["08", "Alert"],
  ["09", "Return to Sender"],
  ["11", "Alert"],
]);
/** tracking.yaml `mailClass`'s enum (Ground Advantage is not in it: such answers carry none). */
const TRACKED_CLASSES = new Set([
  "PRIORITY_MAIL",
  "PRIORITY_MAIL_EXPRESS",
  "PARCEL_SELECT",
  "MEDIA_MAIL",
  "LIBRARY_MAIL",
  "BOUND_PRINTED_MATTER",
  "FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE",
  "PRIORITY_MAIL_EXPRESS_INTERNATIONAL",
]);

function stamp(at: Date, zone: string): { local: string; offset: string } {
  const { date, time } = localDateTime(at, zone);
  const wall = Date.parse(`${date}T${time}:00Z`);
  const minutes = Math.round((wall - Math.floor(at.getTime() / 60_000) * 60_000) / 60_000);
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  return { local: `${date}T${time}:00${offset}`, offset };
}

function track(req: EmulatorRequest, state: CarrierState): EmulatorResponse {
  const tn = decodeURIComponent(req.path.split("/").pop()!).toUpperCase();
  if (!isValidImpb(tn) && !isValidS10(tn)) {
    throw new Refusal(400, "EMU-TRK-400", "The tracking number is not a valid USPS tracking number.", "trackingNumber");
  }
  const sale = sales(state).get(tn);
  if (!sale) {
    return {
      status: 404,
      body: errorBody(404, "EMU-TRK-404", "The tracking number could not be found.", "trackingNumber", "/tracking/v3"),
    };
  }
  const now = state.now().getTime();
  const hours = (now - sale.soldAt) / 3600_000;
  const ending = ENDINGS.get(sale.reference?.startsWith("JOURNEY-") ? sale.reference : "") ?? ENDINGS.get("")!;
  const steps = [
    ...TRIP.map(([h, code, text, where]) => [h, code, text, where] as const),
    ...ending.map(([h, code, text]) => [h, code, text, "destination"] as const),
  ];
  // A label cancelled before USPS had the parcel never moves; one cancelled later was used: its parcel travels on.
  const acceptedAt = sale.soldAt + 2 * 3600_000;
  const stoppedAt = sale.cancel && sale.cancel.at < acceptedAt ? sale.cancel.at : Infinity;
  const fromTz = originTimeZone({
    country_code: "US",
    state_code: str(sale.from.state),
    postal_code: str(sale.from.ZIPCode),
  });
  const toTz = sale.international
    ? "UTC"
    : originTimeZone({ country_code: "US", state_code: str(sale.to.state), postal_code: str(sale.to.ZIPCode) });
  const events = steps
    .filter(([h]) => h <= hours && sale.soldAt + h * 3600_000 <= stoppedAt)
    .map(([h, code, text, where]) => {
      const at = new Date(sale.soldAt + h * 3600_000);
      const place = where === "origin" ? sale.from : sale.to;
      const { local, offset } = stamp(at, where === "origin" ? fromTz : toTz);
      return {
        eventType: text,
        eventTimestamp: local,
        GMTTimestamp: at.toISOString().replace(/\.\d{3}Z$/, "Z"),
        GMTOffset: offset,
        eventCountry: sale.international && where === "destination" ? str(place.countryISOAlpha2Code) : "",
        eventCity: str(place.city).toUpperCase(),
        eventState: sale.international && where === "destination" ? "" : str(place.state),
        eventZIP: str(place.ZIPCode) || str(place.postalCode),
        firm: "",
        name: "",
        authorizedAgent: false,
        eventCode: code,
      };
    })
    .reverse();
  const latest = events[0]!;
  const category = CATEGORY.get(latest.eventCode) ?? "In Transit";
  const delivered = latest.eventCode === "01";
  const expected = new Date(sale.soldAt + 46 * 3600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  return {
    status: 200,
    body: {
      trackingNumber: tn,
      ...(TRACKED_CLASSES.has(sale.mailClass) ? { mailClass: sale.mailClass } : {}),
      status: latest.eventType,
      statusCategory: category,
      statusSummary: `Your item's status is: ${latest.eventType}.`,
      ...(delivered || sale.cancel ? {} : { expectedDeliveryTimeStamp: expected }),
      originCity: str(sale.from.city).toUpperCase(),
      originState: str(sale.from.state),
      originZIP: str(sale.from.ZIPCode),
      destinationCity: str(sale.to.city).toUpperCase(),
      ...(sale.international
        ? { destinationCountryCode: str(sale.to.countryISOAlpha2Code) }
        : { destinationState: str(sale.to.state), destinationZIP: str(sale.to.ZIPCode) }),
      trackingEvents: events,
    },
  };
}

// ---------------------------------------------------------------------------------------------------- routes

const ROUTES: [string, RegExp, Operation][] = [
  ["POST", /^\/oauth2\/v3\/token$/, "token"],
  ["POST", /^\/payments\/v3\/payment-authorization$/, "payment"],
  ["POST", /^\/shipments\/v3\/options\/search$/, "rate"],
  ["POST", /^\/labels\/v3\/label$/, "ship"],
  ["POST", /^\/international-labels\/v3\/international-label$/, "ship"],
  ["DELETE", /^\/labels\/v3\/label\/[^/]+$/, "void"],
  ["DELETE", /^\/international-labels\/v3\/international-label\/[^/]+$/, "void"],
  ["GET", /^\/tracking\/v3\/tracking\/[^/]+$/, "track"],
  ["GET", /^\/addresses\/v3\/address$/, "address_validation"],
];

/** USPS's files (where they contradict themselves: specs/usps/errata.json). The token endpoint has none. */
const USPS_CONTRACT: CarrierContract = {
  files: [
    "usps/payments.yaml",
    "usps/shipping-options.yaml",
    "usps/domestic-labels.yaml",
    "usps/international-labels.yaml",
    "usps/tracking.yaml",
    "usps/addresses.yaml",
  ],
  // USPS's code for a request its schema refuses is in its error inventory, not vendored: EMU-400 is the emulator's.
  refuse: (problems) => ({
    status: 400,
    body: {
      apiVersion: "/v3",
      error: {
        code: "400",
        message: "Bad Request",
        errors: problems.map((p) => ({
          status: "400",
          code: "EMU-400",
          title: "Bad Request",
          detail: `Invalid request: ${problemText(p)}`,
          ...(p.field ? { source: { parameter: p.field } } : {}),
        })),
      },
    },
  }),
};

export const uspsEmulator: EmulatedCarrier = {
  name: "usps",
  contract: USPS_CONTRACT,
  tokenTtlSeconds: TOKEN_TTL_S,
  operationOf(method, path) {
    return ROUTES.find(([m, pattern]) => m === method && pattern.test(path))?.[2] ?? null;
  },
  async handle(req, state) {
    try {
      switch (this.operationOf(req.method, req.path)) {
        case "token":
          return token(req, state);
        case "payment":
          return payment(req, state);
        case "rate":
          return rate(req, state);
        case "ship":
          return await label(req, state, req.path.startsWith("/international-labels/"));
        case "void":
          return cancel(req, state);
        case "track":
          return track(req, state);
        case "address_validation":
          return uspsAddress(req);
        default:
          return { status: 404, body: errorBody(404, "EMU-404", "Resource not found") };
      }
    } catch (error) {
      if (error instanceof Refusal) {
        return { status: error.status, body: errorBody(error.status, error.code, error.message, error.field) };
      }
      throw error;
    }
  },
  errorBody(status, code, message) {
    return errorBody(status, code, message);
  },
};
