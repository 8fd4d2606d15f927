import { CsvFileError, readCsv } from "@/lib/batches/read-csv";
import { resolveMapping } from "@/lib/batches/row-input";
import { BATCH_FIELDS, type BatchField } from "@/lib/schemas/batch";

/** How each field a CSV row can fill reads in the mapping step, grouped as a clerk thinks of a parcel. */
export const FIELD_GROUPS: readonly { legend: string; fields: readonly { field: BatchField; label: string }[] }[] = [
  { legend: "Order", fields: [{ field: "reference", label: "Order number" }] },
  {
    legend: "Ship to",
    fields: [
      { field: "recipient.person_name", label: "Name" },
      { field: "recipient.company_name", label: "Company" },
      { field: "recipient.address_line1", label: "Street" },
      { field: "recipient.address_line2", label: "Street, line 2" },
      { field: "recipient.city", label: "City" },
      { field: "recipient.state_code", label: "State or province" },
      { field: "recipient.postal_code", label: "Postal code" },
      { field: "recipient.country_code", label: "Country" },
      { field: "recipient.phone_number", label: "Phone" },
      { field: "recipient.email", label: "Email" },
      { field: "recipient.residential", label: "Residential" },
    ],
  },
  {
    legend: "Parcel",
    fields: [
      { field: "parcel.weight", label: "Weight" },
      { field: "parcel.weight_unit", label: "Weight unit" },
      { field: "parcel.length", label: "Length" },
      { field: "parcel.width", label: "Width" },
      { field: "parcel.height", label: "Height" },
      { field: "parcel.dimension_unit", label: "Dimension unit" },
    ],
  },
  {
    legend: "Carrier and service",
    fields: [
      { field: "carrier_id", label: "Carrier" },
      { field: "service", label: "Service" },
    ],
  },
  {
    legend: "Customs (parcels abroad)",
    fields: [
      { field: "customs.description", label: "Contents" },
      { field: "customs.quantity", label: "Quantity" },
      { field: "customs.value", label: "Value" },
      { field: "customs.currency", label: "Currency" },
      { field: "customs.hs_code", label: "HS code" },
      { field: "customs.origin_country", label: "Country of origin" },
    ],
  },
];

/** Field → CSV header, or "" for a field the file does not have. */
export type ColumnChoice = Record<BatchField, string>;

/**
 * The mapping step's starting point: the organization's saved mapping where the file has that column, else the
 * column the server would read anyway (a header spelt as the field or its last part: the API's own rule).
 */
export function prefillMapping(headers: string[], saved: Partial<Record<BatchField, string>>): ColumnChoice {
  const present = new Set(headers.map((h) => h.toLowerCase()));
  const usable = Object.fromEntries(
    Object.entries(saved).filter(([, header]) => header && present.has(header.toLowerCase())),
  ) as Partial<Record<BatchField, string>>;
  const { columns } = resolveMapping(headers, usable);
  return Object.fromEntries(BATCH_FIELDS.map((f) => [f, columns[f] ?? ""])) as ColumnChoice;
}

/** The chosen columns as the API's `mapping` (fields left out are not in the file). */
export function mappingOf(choice: ColumnChoice): Partial<Record<BatchField, string>> {
  return Object.fromEntries(Object.entries(choice).filter(([, header]) => header !== "")) as Partial<
    Record<BatchField, string>
  >;
}

/** How many bytes of the file are read for its header: far more than any header row. */
const HEADER_BYTES = 64 * 1024;

/**
 * The header row of a chosen CSV file, read in the browser with the reader the server uses, or why the file has none
 * the server would take (no header, a column without a name, a name twice).
 */
export async function readHeaders(file: Blob): Promise<{ headers: string[] } | { problem: string }> {
  const text = await file.slice(0, HEADER_BYTES).text();
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  try {
    return { headers: readCsv(firstLine).headers };
  } catch (err) {
    if (err instanceof CsvFileError) return { problem: err.message };
    throw err;
  }
}
