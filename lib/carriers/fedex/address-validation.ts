import type { components } from "@/lib/carriers/fedex/generated/address-validation";
import type { Address, AddressVerification, AdapterMessage } from "@/lib/carriers/types";
import { carrierCode } from "@/lib/carriers/types";
import { alertMessages, badResponse } from "@/lib/carriers/fedex/errors";

/**
 * FedEx Address Validation (address-validation.json, `POST /address/v1/addresses/resolve`): up to 100 addresses a
 * call, each answered by one `resolvedAddresses[]` entry (matched back by `clientReferenceId`, else by order) whose
 * `attributes` say what FedEx made of it. Names, companies and phones are never sent: the check needs the lines.
 *
 * How the attributes read, in the file's own words:
 * - `CountrySupported` false, or `AddressType` RAW ("address country not supported"): FedEx does not check that
 *   country — no verdict at all ("unsupported"), which the service reports as unverified.
 * - `Resolved` false, or `AddressType` NORMALIZED ("unable to match the address against reference data"): not found.
 * - `MultipleMatches` ("has multiple matches available"), `InvalidSuiteNumber`, an interpolated street number
 *   (customer message INTERPOLATED.STREET.ADDRESS, "unable to confirm exact street number"), or a suite required
 *   but neither sent nor added: ambiguous — FedEx's best match is offered, and the caller must say which.
 * - Otherwise the resolved address is FedEx's; the service tells verified from corrected by comparing (a suite FedEx
 *   added under `SuiteRequiredButMissing`, a ZIP+4, a city spelled FedEx's way).
 *
 * `classification` is read for US and Canadian addresses only (RESIDENTIAL, BUSINESS; MIXED and UNKNOWN are
 * unknown): elsewhere FedEx's resolution is generic and its classification says nothing we would bill on.
 *
 * The file types the attributes as booleans and names `customerMessage`; FedEx's own documented sample answer writes
 * the attributes as strings ("true") and the list as `customerMessages`. Both spellings are read.
 */
type ResolveRequest = components["schemas"]["Full_Schema_Validate_Address"];
// Widened where FedEx's answers and its file disagree (see above): read, never trusted to the file's types.
type ResolvedAddress = Omit<components["schemas"]["ResolvedAddress"], "attributes" | "classification"> & {
  attributes?: Record<string, unknown>;
  classification?: string;
  clientReferenceId?: unknown;
  postalCode?: unknown;
  customerMessages?: unknown;
};

export const RESOLVE_PATH = "/address/v1/addresses/resolve";
/** address-validation.json: "Up to 100 of these can be submitted in a single request." */
export const RESOLVE_BATCH = 100;
/** Where FedEx's classification is read ("residential for US and CA"). */
const CLASSIFIED = new Set(["US", "CA"]);
/** address-validation.json (streetLines): "Maximum up to three lines"; "empty lines should not be included". */
const MAX_LINES = 3;

export function buildResolveRequest(addresses: Address[]): ResolveRequest {
  return {
    addressesToValidate: addresses.map((a, i) => {
      const state = a.state_code.trim();
      return {
        address: {
          streetLines: [a.address_line1, a.address_line2]
            .map((l) => (l ?? "").trim())
            .filter((l) => l !== "")
            .slice(0, MAX_LINES),
          city: a.city.trim(),
          // "Maximum length is 2": a longer subdivision name would be refused, and the postal code says as much.
          ...(state && state.length <= 2 ? { stateOrProvinceCode: state } : {}),
          postalCode: a.postal_code.trim(),
          countryCode: a.country_code,
        },
        clientReferenceId: String(i),
      };
    }),
  };
}

/** A FedEx attribute as a boolean: the file says boolean, FedEx's sample answers write "true"/"false". */
function flag(attrs: Record<string, unknown>, name: string): boolean | null {
  const v = attrs[name];
  if (v === true || v === "true" || v === "TRUE") return true;
  if (v === false || v === "false" || v === "FALSE") return false;
  return null;
}

const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

function postalOf(r: ResolvedAddress, sent: Address): string {
  if (str(r.postalCode)) return str(r.postalCode);
  const parsed = r.parsedPostalCode;
  if (str(parsed?.base)) return str(parsed?.addOn) ? `${str(parsed?.base)}-${str(parsed?.addOn)}` : str(parsed?.base);
  return str(r.postalCodeToken?.value) || sent.postal_code;
}

function candidateOf(sent: Address, r: ResolvedAddress): Address {
  const lines = (Array.isArray(r.streetLinesToken) ? r.streetLinesToken : []).map(str).filter((l) => l !== "");
  return {
    ...sent,
    address_line1: lines[0] ?? sent.address_line1,
    address_line2: lines.slice(1).join(" ") || null,
    city: str(r.city) || sent.city,
    state_code: str(r.stateOrProvinceCode) || sent.state_code,
    postal_code: postalOf(r, sent),
    country_code: str(r.countryCode) || sent.country_code,
  };
}

function customerMessages(r: ResolvedAddress): { code: string; message: string }[] {
  const raw = [r.customerMessages, r.customerMessage].find(Array.isArray) as unknown[] | undefined;
  return (raw ?? []).flatMap((m) => {
    if (typeof m === "string") return [{ code: m, message: m }];
    const o = (m ?? {}) as { code?: unknown; message?: unknown };
    const code = str(o.code);
    return code ? [{ code, message: str(o.message) || code }] : [];
  });
}

function residentialOf(sent: Address, r: ResolvedAddress): boolean | null {
  if (!CLASSIFIED.has(sent.country_code)) return null;
  return r.classification === "RESIDENTIAL" ? true : r.classification === "BUSINESS" ? false : null;
}

/** One resolved address as our verdict on the address sent. */
export function verdictOf(sent: Address, r: ResolvedAddress): AddressVerification {
  const attrs = typeof r.attributes === "object" && r.attributes !== null ? r.attributes : {};
  const type = str(attrs.AddressType).toUpperCase();
  if (flag(attrs, "CountrySupported") === false || type === "RAW") {
    return { status: "unsupported", candidates: [], residential: null };
  }
  if (flag(attrs, "Resolved") === false || type === "NORMALIZED") {
    return { status: "not_found", candidates: [], residential: null };
  }
  const candidate = candidateOf(sent, r);
  const residential = residentialOf(sent, r);
  const codes = new Set(customerMessages(r).map((m) => m.code.toUpperCase()));
  const sentLines = [sent.address_line1, sent.address_line2].filter((l) => !!l?.trim()).length;
  const suiteStillMissing =
    flag(attrs, "SuiteRequiredButMissing") === true && (candidate.address_line2 ? 2 : 1) <= sentLines;
  const unsure =
    flag(attrs, "MultipleMatches") === true ||
    flag(attrs, "InvalidSuiteNumber") === true ||
    flag(attrs, "InterpolatedStreetAddress") === true ||
    codes.has("INTERPOLATED.STREET.ADDRESS") ||
    suiteStillMissing;
  return { status: unsure ? "ambiguous" : "verified", candidates: [candidate], residential };
}

/**
 * The verdicts of one answer, in the order the addresses were sent, and FedEx's words on them as messages (each
 * customer message names the address it is about by its index in the call).
 */
export function parseResolveOutput(
  sent: Address[],
  output: Record<string, unknown>,
): { data: AddressVerification[]; messages: AdapterMessage[] } {
  const resolved = output.resolvedAddresses;
  if (!Array.isArray(resolved)) throw badResponse("no resolvedAddresses in the answer");
  const entries = resolved.filter((r): r is ResolvedAddress => typeof r === "object" && r !== null);
  const byRef = new Map(entries.map((r) => [str(r.clientReferenceId), r]));
  const messages: AdapterMessage[] = alertMessages(output.alerts);
  const data = sent.map((address, i) => {
    const r = byRef.get(String(i)) ?? (entries.length === sent.length ? entries[i] : undefined);
    if (!r) throw badResponse(`no resolved address for address ${i + 1} of ${sent.length}`);
    for (const m of customerMessages(r)) {
      messages.push({ code: carrierCode(m.code), message: m.message, level: "info", details: { index: i } });
    }
    return verdictOf(address, r);
  });
  return { data, messages };
}
