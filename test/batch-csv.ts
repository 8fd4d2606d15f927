/**
 * The CSV (issue 33): `rows` data rows below a header, seven of them broken in the seven ways the issue
 * names, each at a known line. Shared by test/batches.test.ts and bench/batches.ts. Bytes, not text: one row
 * carries a byte that is not UTF-8.
 */
const BATCH_HEADER = "order_number,name,address_line1,city,state_code,postal_code,country_code,weight,service";

/** Line (the header is line 1) → the column the batch must name (null: the whole line) and the reason's code. */
export const BROKEN_LINES: Record<number, { column: string | null; code: string }> = {
  11: { column: "postal_code", code: "postal_code_invalid" },
  101: { column: "weight", code: "invalid_value" },
  201: { column: "service", code: "rating_failed" },
  301: { column: "name", code: "not_utf8" },
  401: { column: null, code: "empty_row" },
  501: { column: "service", code: "field_count" },
  601: { column: "order_number", code: "duplicate_reference" },
};

const CITIES = [
  ["Austin", "TX", "78701"],
  ["Boston", "MA", "02108"],
  ["Denver", "CO", "80202"],
  ["Seattle", "WA", "98101"],
  ["Miami", "FL", "33101"],
];

export function batchCsv(rows = 1000): Uint8Array {
  const parts: Buffer[] = [Buffer.from(BATCH_HEADER + "\n")];
  for (let i = 0; i < rows; i++) {
    const line = i + 2;
    const [city, state, zip] = CITIES[i % CITIES.length]!;
    const order = `SO-${100000 + i}`;
    // Every third address has a comma, quoted as CSV wants: these rows are fine.
    const street = i % 3 === 0 ? `"${i + 1} Elm Street, Apt ${i % 40}"` : `${i + 1} Elm Street`;
    const service = i % 2 === 0 ? "SBX_GROUND" : "";
    let text = `${order},Recipient ${i},${street},${city},${state},${zip},US,${(1 + (i % 20) / 4).toFixed(2)},${service}`;
    switch (line) {
      case 11:
        text = `${order},Recipient ${i},${i + 1} Elm Street,${city},${state},ABCDE,US,1.5,`;
        break;
      case 101:
        text = `${order},Recipient ${i},${i + 1} Elm Street,${city},${state},${zip},US,,`;
        break;
      case 201:
        text = `${order},Recipient ${i},${i + 1} Elm Street,${city},${state},${zip},US,2,SBX_TELEPORT`;
        break;
      case 301:
        parts.push(
          Buffer.from(`${order},Ren`),
          Buffer.from([0xe9, 0x20]),
          Buffer.from(`Roux,1 Rue,${city},${state},${zip},US,2,\n`),
        );
        continue;
      case 401:
        text = "";
        break;
      case 501:
        // The comma in the street is not quoted: one field too many.
        text = `${order},Recipient ${i},${i + 1} Elm Street, Apt 5,${city},${state},${zip},US,2,`;
        break;
      case 601:
        text = `SO-100000,Recipient ${i},${i + 1} Elm Street,${city},${state},${zip},US,2,`;
        break;
    }
    parts.push(Buffer.from(text + "\n"));
  }
  return Buffer.concat(parts);
}
