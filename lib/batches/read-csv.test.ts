import { describe, expect, it } from "vitest";
import { CsvFileError, MAX_CSV_COLUMNS, MAX_CSV_HEADER_LENGTH, readCsv } from "./read-csv";

const header = "order_number,person_name,address_line1,city,state_code,postal_code,country_code,weight";
const rowsOf = (n: number) => Array.from({ length: n }, (_, i) => `SO-${i},Ann ${i},${i + 1} Elm,Austin,TX,78701,US,1`);
const bytes = (text: string) => new TextEncoder().encode(text);
const fileError = (read: () => unknown) => {
  try {
    read();
  } catch (err) {
    if (err instanceof CsvFileError) return err.message;
    throw err;
  }
  throw new Error("the file was read");
};

describe("readCsv: quotes", () => {
  it("refuses the file at a value that starts with a quote and goes on after it, naming its line", () => {
    const lines = rowsOf(8);
    lines[2] = `SO-2,"The Loft" Ann,3 Elm,Austin,TX,78701,US,1`;
    const csv = `${header}\n${lines.join("\n")}\n`;
    // papaparse alone reads the rest of the file as one field: 3 records of 8, no error naming the lost lines.
    expect(fileError(() => readCsv(csv))).toMatch(/^Line 4 of the CSV file has a broken quote/);
    expect(fileError(() => readCsv(bytes(csv)))).toMatch(/^Line 4 /);
  });

  it("refuses the file at a quote never closed, in the middle or on the last line", () => {
    const lines = rowsOf(5);
    lines[1] = `SO-1,"Ann,2 Elm,Austin,TX,78701,US,1`;
    expect(fileError(() => readCsv(`${header}\n${lines.join("\n")}\n`))).toMatch(/^Line 3 /);
    const last = [...rowsOf(4), `SO-4,Ann,"5 Elm,Austin,TX,78701,US,1`];
    expect(fileError(() => readCsv(`${header}\n${last.join("\n")}\n`))).toMatch(/^Line 6 /);
  });

  it("names the line of a broken quote below a value that spans lines", () => {
    const csv = `${header}\nSO-1,"Ann\nand Bob",1 Elm,Austin,TX,78701,US,1\nSO-2,"Cy" D,2 Elm,Austin,TX,78701,US,1\n`;
    expect(fileError(() => readCsv(csv))).toMatch(/^Line 4 /);
  });

  it("reads quoted values with doubled quotes, commas and newlines, and a quote inside a bare value", () => {
    const csv =
      `${header}\n` +
      `SO-1,"""The Loft"" Ann","1 Elm, Apt 2",Austin,TX,78701,US,1\n` +
      `SO-2,"Bob\nBack door",2 Elm,Austin,TX,78701,US,1\n` +
      `SO-3,Cy "The Loft" D,3 Elm,Austin,TX,78701,US,1\n`;
    const read = readCsv(csv);
    expect(read.records.map((r) => [r.line, r.problem])).toEqual([
      [2, null],
      [3, null],
      [5, null],
    ]);
    expect(read.records.map((r) => [r.values.person_name, r.values.address_line1])).toEqual([
      ['"The Loft" Ann', "1 Elm, Apt 2"],
      ["Bob\nBack door", "2 Elm"],
      ['Cy "The Loft" D', "3 Elm"],
    ]);
  });
});

describe("readCsv: bytes that are not UTF-8 text", () => {
  it("refuses a UTF-16 file (Excel's Unicode Text), either byte order, saying to save it as UTF-8", () => {
    const text = `${header}\n${rowsOf(1)[0]}\n`;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    const be = Buffer.from(le).swap16();
    expect(be[0]).toBe(0xfe);
    for (const file of [le, be]) {
      expect(fileError(() => readCsv(new Uint8Array(file)))).toMatch(/UTF-16.*"CSV UTF-8"/);
    }
  });

  it("refuses a header with a NUL byte (UTF-16 without its mark), saying to save it as UTF-8", () => {
    const noMark = Buffer.from(`${header}\n${rowsOf(1)[0]}\n`, "utf16le");
    expect(fileError(() => readCsv(new Uint8Array(noMark)))).toMatch(/NUL.*"CSV UTF-8"/);
    expect(fileError(() => readCsv(bytes(`order_number,na\u0000me\nSO-1,Ann\n`)))).toMatch(/NUL/);
  });

  it("makes a NUL byte in a row that row's problem, keeps no NUL, and reads the rows after it", () => {
    const lines = rowsOf(3);
    lines[0] = `SO-0,Ann\u0000,1 Elm,Austin,TX,78701,US,1`;
    const read = readCsv(bytes(`${header}\n${lines.join("\n")}\n`));
    expect(read.records.map((r) => [r.line, r.problem?.code ?? null, r.problem?.column ?? null])).toEqual([
      [2, "nul_byte", "person_name"],
      [3, null, null],
      [4, null, null],
    ]);
    expect(read.records[0]!.values.person_name).toBe("Ann\uFFFD");
    expect(JSON.stringify(read.records)).not.toContain("\\u0000");
  });

  it("reads a file that starts with a UTF-8 byte order mark", () => {
    const read = readCsv(bytes(`\uFEFF${header}\n${rowsOf(2).join("\n")}\n`));
    expect(read.headers[0]).toBe("order_number");
    expect(read.records.map((r) => [r.line, r.problem])).toEqual([
      [2, null],
      [3, null],
    ]);
  });
});

describe("readCsv: limits", () => {
  it(`refuses more than ${MAX_CSV_COLUMNS} columns, and a column name over ${MAX_CSV_HEADER_LENGTH} characters`, () => {
    const wide = Array.from({ length: MAX_CSV_COLUMNS + 1 }, (_, i) => `c${i}`).join(",");
    expect(fileError(() => readCsv(`${wide}\n1\n`))).toMatch(`has ${MAX_CSV_COLUMNS + 1} columns`);
    const full = Array.from({ length: MAX_CSV_COLUMNS }, (_, i) => `c${i}`).join(",");
    expect(readCsv(`${full}\n1\n`).headers).toHaveLength(MAX_CSV_COLUMNS);

    const long = "x".repeat(MAX_CSV_HEADER_LENGTH + 1);
    expect(fileError(() => readCsv(`a,${long}\n1,2\n`))).toMatch(`more than ${MAX_CSV_HEADER_LENGTH} characters`);
    expect(readCsv(`a,${long.slice(1)}\n1,2\n`).headers[1]).toHaveLength(MAX_CSV_HEADER_LENGTH);
  });

  it("stops reading a record or two past maxRecords, and says there are more", () => {
    const exact = readCsv(`a\n${"1\n".repeat(10)}`, { maxRecords: 10 });
    expect([exact.records.length, exact.more]).toEqual([10, false]);
    const over = readCsv(`a\n${"1\n".repeat(11)}`, { maxRecords: 10 });
    expect([over.records.length, over.more]).toEqual([11, true]);
    // Past the limit, an empty line is not taken for the newline ending the file.
    const gap = readCsv(`a\n${"1\n".repeat(10)}\n${"1\n".repeat(5)}`, { maxRecords: 10 });
    expect(gap.more).toBe(true);
    const huge = readCsv(`a\n${"1\n".repeat(1_000_000)}`, { maxRecords: 10 });
    expect([huge.records.length, huge.more]).toEqual([12, true]);
  });

  it("names a line that is not UTF-8 within the records read", () => {
    const file = Buffer.concat([Buffer.from("a,b\nx,y\nRen"), Buffer.from([0xe9]), Buffer.from(",z\n")]);
    const read = readCsv(new Uint8Array(file), { maxRecords: 10 });
    expect(read.records.map((r) => [r.line, r.problem?.code ?? null, r.problem?.column ?? null])).toEqual([
      [2, null, null],
      [3, "not_utf8", "a"],
    ]);
  });
});
