import { checkAddress } from "@/lib/addresses/offline-checks";
import type { CheckedAddress } from "@/lib/addresses/types";
import { isCarrierName } from "@/lib/carriers/names";
import { parseInput } from "@/lib/validation";
import { crossesCustomsBorder } from "@/lib/carriers/customs-territory";
import { ShipmentCreate } from "@/lib/schemas/shipment";
import type { AddressInput } from "@/lib/schemas/address";
import type { BatchField } from "@/lib/schemas/batch";
import { BATCH_FIELDS } from "@/lib/schemas/batch";

/** A row's problem, as the batch lists it: a code, the CSV header it is in, and what is wrong. */
export interface RowProblem {
  code: string;
  column: string | null;
  message: string;
}

/** What every CSV row of a batch shares. */
export interface RowDefaults {
  shipper: AddressInput;
  label_type: string;
  options: Record<string, unknown>;
}

/** Field → the CSV header it is read from: the mapping's, else a header spelt as the field or its last part. */
export function resolveMapping(
  headers: string[],
  given: Partial<Record<BatchField, string>>,
): { columns: Partial<Record<BatchField, string>>; problems: RowProblem[] } {
  const byName = new Map(headers.map((h) => [h.toLowerCase(), h]));
  const columns: Partial<Record<BatchField, string>> = {};
  const problems: RowProblem[] = [];
  for (const field of BATCH_FIELDS) {
    const named = given[field];
    if (named !== undefined) {
      const header = byName.get(named.toLowerCase());
      if (header === undefined) {
        problems.push({
          code: "unknown_column",
          column: named,
          message: `mapping.${field}: the CSV has no column "${named}"`,
        });
      } else columns[field] = header;
      continue;
    }
    const short = field.slice(field.indexOf(".") + 1);
    const header = byName.get(field) ?? (field.startsWith("customs.") ? undefined : byName.get(short));
    if (header !== undefined) columns[field] = header;
  }
  return { columns, problems };
}

/**
 * A CSV record as the shipment it stands for (a ShipmentCreate, validated by the same schema as POST
 * /v1/shipments), or the problems that keep it from being one, each naming the CSV column. The checks beyond the
 * schema: lib/addresses' offline checks of the recipient (as POST /v1/addresses/validate makes them), and customs
 * where the parcel crosses a border.
 */
export function rowToShipment(
  values: Record<string, string>,
  columns: Partial<Record<BatchField, string>>,
  defaults: RowDefaults,
  policy: { carrier_id: string | null; service: string | null },
): { ok: true; input: ShipmentCreate } | { ok: false; problems: RowProblem[] } {
  const problems: RowProblem[] = [];
  const read = (field: BatchField): string | undefined => {
    const header = columns[field];
    const v = header === undefined ? undefined : values[header]?.trim();
    return v === "" ? undefined : v;
  };
  const num = (field: BatchField): number | string | undefined => {
    const v = read(field);
    if (v === undefined) return undefined;
    const n = Number(v.replace(",", "."));
    if (!Number.isFinite(n)) {
      problems.push({ code: "invalid_value", column: columns[field] ?? null, message: "must be a number" });
      return undefined;
    }
    return n;
  };
  const recipient: Record<string, unknown> = {};
  for (const f of BATCH_FIELDS) {
    if (!f.startsWith("recipient.")) continue;
    const v = read(f);
    if (v === undefined) continue;
    const key = f.slice("recipient.".length);
    recipient[key] = key === "residential" ? /^(1|true|yes|y)$/i.test(v) : v;
  }
  const parcel = {
    weight: num("parcel.weight"),
    weight_unit: read("parcel.weight_unit") ?? "KG",
    length: num("parcel.length"),
    width: num("parcel.width"),
    height: num("parcel.height"),
    dimension_unit: read("parcel.dimension_unit") ?? (num("parcel.length") !== undefined ? "CM" : undefined),
  };
  const carrierId = read("carrier_id") ?? policy.carrier_id;
  const service = read("service") ?? policy.service;
  const country = (recipient.country_code as string | undefined)?.toUpperCase();
  const crosses = country !== undefined && crossesCustomsBorder(defaults.shipper.country_code, country);
  const customs = crosses ? customsOf(read, num, columns, problems) : undefined;
  if (problems.length > 0) return { ok: false, problems };

  const parsed = parseInput(ShipmentCreate, {
    shipper: defaults.shipper,
    recipient,
    parcels: [parcel],
    options: defaults.options,
    carrier_ids: carrierId ? [carrierId] : [],
    services: service ? [service] : [],
    label_type: defaults.label_type,
    reference: read("reference") ?? null,
    customs: customs ?? null,
  });
  if (!parsed.ok) {
    return {
      ok: false,
      problems: parsed.problems.map((p) => ({
        code: "invalid_value",
        column: columnOf(p.field, columns),
        message: p.message,
      })),
    };
  }
  const input = parsed.data;
  // The offline checks of POST /v1/addresses/validate, so a batch and that endpoint agree on an address. The
  // carrier's own checks (PO Box, line lengths) follow in the dry run, once a rate names the carrier.
  const checked = checkAddress(checkedAddress(input.recipient));
  for (const m of checked.messages) {
    if (m.level !== "error") continue;
    const field = m.field ? (`recipient.${m.field}` as BatchField) : null;
    problems.push({ code: m.code, column: field ? (columns[field] ?? field) : null, message: m.text });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, input };
}

/** What the offline checks read of a recipient (a CSV row's, or a stored shipment's). */
export interface RecipientLines {
  person_name?: string | null;
  company_name?: string | null;
  address_line1?: string | null;
  address_line2?: string | null;
  city?: string | null;
  postal_code?: string | null;
  state_code?: string | null;
  country_code: string;
  phone_number?: string | null;
}

function checkedAddress(r: RecipientLines): CheckedAddress {
  return {
    person_name: r.person_name ?? null,
    company_name: r.company_name ?? null,
    address_line1: r.address_line1 ?? "",
    address_line2: r.address_line2 ?? null,
    city: r.city ?? "",
    postal_code: r.postal_code ?? "",
    state_code: r.state_code ?? "",
    country_code: r.country_code,
    phone_number: r.phone_number ?? null,
  };
}

/**
 * What keeps the carrier a rate is for from delivering this recipient as given: the offline checks with the carrier
 * and service named (a PO Box it does not serve; a line longer than its label prints, which a batch refuses rather
 * than cut, since no one looks at each label before it is bought). The field is the recipient's (`recipient.x`).
 */
export function carrierAddressProblem(
  recipient: RecipientLines,
  carrierName: string,
  service: string,
): { code: string; field: BatchField | null; message: string } | null {
  if (!isCarrierName(carrierName)) return null;
  const { messages } = checkAddress(checkedAddress(recipient), { carrier: carrierName, service });
  const m = messages.find((x) => x.level === "error" || x.code === "line_too_long");
  if (!m) return null;
  return { code: m.code, field: m.field ? (`recipient.${m.field}` as BatchField) : null, message: m.text };
}

/** One commodity from the customs columns, required when the parcel crosses a customs border. */
function customsOf(
  read: (f: BatchField) => string | undefined,
  num: (f: BatchField) => number | string | undefined,
  columns: Partial<Record<BatchField, string>>,
  problems: RowProblem[],
): Record<string, unknown> | undefined {
  const description = read("customs.description");
  const value = num("customs.value");
  if (description === undefined || value === undefined) {
    problems.push({
      code: "customs_required",
      column:
        columns[description === undefined ? "customs.description" : "customs.value"] ??
        (description === undefined ? "customs.description" : "customs.value"),
      message: "is required: the parcel crosses a customs border (customs.description and customs.value)",
    });
    return undefined;
  }
  return {
    content_description: description,
    commodities: [
      {
        description,
        quantity: num("customs.quantity") ?? 1,
        value_amount: value,
        value_currency: read("customs.currency") ?? "USD",
        weight: num("parcel.weight"),
        weight_unit: read("parcel.weight_unit") ?? "KG",
        hs_code: read("customs.hs_code") ?? null,
        origin_country: read("customs.origin_country") ?? "US",
      },
    ],
  };
}

/** The CSV header a schema problem's field (`recipient.postal_code`, `parcels[0].weight`) was read from. */
function columnOf(field: string | null, columns: Partial<Record<BatchField, string>>): string | null {
  if (field === null) return null;
  const f = field
    .replace(/^parcels\[0\]\./, "parcel.")
    .replace(/^carrier_ids(\[0\])?$/, "carrier_id")
    .replace(/^services(\[0\])?$/, "service");
  const known = (BATCH_FIELDS as readonly string[]).includes(f) ? (f as BatchField) : null;
  if (known) return columns[known] ?? known;
  if (f.startsWith("customs.")) return columns["customs.description"] ?? f;
  return f;
}
