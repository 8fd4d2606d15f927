import Papa from "papaparse";

/** One CSV record: its first line in the file (the header is line 1) and its values by header, or its problem. */
type CsvRecord =
  | { line: number; values: Record<string, string>; problem: null }
  | { line: number; values: Record<string, string>; problem: { code: string; column: string | null; message: string } };

export interface CsvRead {
  headers: string[];
  records: CsvRecord[];
  /** The file has more records than `maxRecords`: reading stopped a record or two past it, so there is no count. */
  more: boolean;
}

/**
 * A file the reader cannot take as a whole (no header, nothing but a header, a broken quote, UTF-16, too many or too
 * long column names): the request's own error.
 */
export class CsvFileError extends Error {}

/** A batch file's columns: each row is stored by its header's names, so these bound a row's size, not the bytes. */
export const MAX_CSV_COLUMNS = 100;
export const MAX_CSV_HEADER_LENGTH = 100;

const SAVE_AS_UTF8 = 'save it as UTF-8 (in Excel, "CSV UTF-8") and upload it again';

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const LENIENT = new TextDecoder("utf-8");

/**
 * Lines (1-based, up to `lastLine`) whose bytes are not UTF-8: each is a row error, never a reason to refuse the
 * file.
 */
function nonUtf8Lines(bytes: Uint8Array, lastLine: number): Set<number> {
  const bad = new Set<number>();
  let start = 0;
  let line = 1;
  for (let i = 0; i <= bytes.length && line <= lastLine; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      const slice = bytes.subarray(start, i);
      // ASCII is UTF-8: only lines with high bytes need the decoder.
      if (slice.some((b) => b >= 0x80)) {
        try {
          UTF8.decode(slice);
        } catch {
          bad.add(line);
        }
      }
      start = i + 1;
      line++;
    }
  }
  return bad;
}

/**
 * Reads a CSV file with papaparse: UTF-8 (a line that is not is that row's error, naming the line), comma or
 * semicolon (guessed from the header), a header row. Each record keeps the line it starts on, so every problem can
 * name it; an empty line, a NUL byte and a row with more or fewer fields than the header are rows' problems too.
 * A broken quote refuses the file, naming its line: papaparse reads on to the next quote, so where the records after
 * it start is lost. Reading stops past `maxRecords` records (`more`), so a huge file costs no more than a full one.
 */
export function readCsv(input: Uint8Array | string, { maxRecords = Infinity }: { maxRecords?: number } = {}): CsvRead {
  const bytes = typeof input === "string" ? null : input;
  // Excel's "Unicode Text" is UTF-16 (little-endian, FF FE); read as UTF-8 it is a NUL byte after every letter.
  if (
    bytes &&
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  )
    throw new CsvFileError(`The CSV file is UTF-16 text, not UTF-8: ${SAVE_AS_UTF8}.`);
  let text = bytes ? LENIENT.decode(bytes) : (input as string);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ";" : ",";

  // The header, the records allowed, one more to know there are too many, and the newline ending the file.
  const preview = maxRecords === Infinity ? 0 : maxRecords + 3;
  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: false, header: false, preview });
  const quote = parsed.errors.find((e) => e.type === "Quotes");
  if (quote) {
    const line = lineAt(text, quote.index ?? 0);
    throw new CsvFileError(
      `Line ${line} of the CSV file has a broken quote: a value that starts with a quote (") must end with one, ` +
        'its own quotes doubled ("""The Loft"" Ann" for "The Loft" Ann). Where the rows after it start cannot be ' +
        "known, so the file is refused.",
    );
  }
  // Where each record starts: papaparse gives rows, not lines, so lines are counted through the rows' text.
  const rows = parsed.data;
  if (rows.length === 0 || rows[0]!.every((h) => h.trim() === ""))
    throw new CsvFileError("The CSV file has no header row.");
  if (rows[0]!.some((h) => h.includes("\u0000")))
    throw new CsvFileError(`The header row has NUL bytes: the file is not UTF-8 text (UTF-16?); ${SAVE_AS_UTF8}.`);
  const headers = rows[0]!.map((h) => h.trim());
  if (headers.length > MAX_CSV_COLUMNS) {
    throw new CsvFileError(
      `The header row has ${headers.length} columns; a batch file takes up to ${MAX_CSV_COLUMNS}: leave out the ` +
        "columns no field is mapped to.",
    );
  }
  const seen = new Set<string>();
  for (const h of headers) {
    if (h === "") throw new CsvFileError("A column of the header row has no name.");
    if (h.length > MAX_CSV_HEADER_LENGTH) {
      throw new CsvFileError(
        `The header row names a column in more than ${MAX_CSV_HEADER_LENGTH} characters ("${h.slice(0, 60)}…").`,
      );
    }
    if (seen.has(h)) throw new CsvFileError(`The header row names the column "${h.slice(0, 60)}" twice.`);
    seen.add(h);
  }
  const rowErrors = new Map<number, string>();
  for (const e of parsed.errors) if (e.row !== undefined) rowErrors.set(e.row, e.message);

  const records: CsvRecord[] = [];
  const lines: number[] = [];
  let line = 1 + lineCount(rows[0]!);
  for (let r = 1; r < rows.length; r++) {
    const fields = rows[r]!;
    lines.push(line);
    line += lineCount(fields);
    // The newline ending the file is no record.
    if (r === rows.length - 1 && fields.length === 1 && fields[0] === "") lines.pop();
  }
  // Only the lines read can be a record's: a huge file's others are never looked at.
  const badLines = bytes ? nonUtf8Lines(bytes, line) : new Set<number>();
  lines.forEach((here, i) => {
    const fields = rows[i + 1]!;
    const values: Record<string, string> = {};
    // Postgres stores no NUL in text or jsonb: the row fails (below) and keeps U+FFFD where the NUL was.
    headers.forEach((h, j) => (values[h] = (fields[j] ?? "").replaceAll("\u0000", "\uFFFD")));
    const spans = lineCount(fields);
    const problem = recordProblem(fields, headers, here, spans, badLines, rowErrors.get(i + 1));
    records.push(problem ? { line: here, values, problem } : { line: here, values, problem: null });
  });
  return { headers, records, more: records.length > maxRecords };
}

/** The line (1-based) of a character of the text. */
function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Physical lines a record spans: one, plus the newlines inside its quoted fields. */
function lineCount(fields: string[]): number {
  let n = 1;
  for (const f of fields) for (let i = f.indexOf("\n"); i !== -1; i = f.indexOf("\n", i + 1)) n++;
  return n;
}

function recordProblem(
  fields: string[],
  headers: string[],
  line: number,
  spans: number,
  badLines: Set<number>,
  parseError: string | undefined,
): { code: string; column: string | null; message: string } | null {
  for (let l = line; l < line + spans; l++) {
    if (badLines.has(l)) {
      const at = fields.findIndex((f) => f.includes("\uFFFD"));
      return {
        code: "not_utf8",
        column: at >= 0 ? (headers[at] ?? null) : null,
        message: "is not UTF-8 text: save the file as UTF-8 and upload it again",
      };
    }
  }
  const nul = fields.findIndex((f) => f.includes("\u0000"));
  if (nul >= 0) {
    return {
      code: "nul_byte",
      column: headers[nul] ?? null,
      message: "has a NUL byte, which no text has: save the file as UTF-8 and upload it again",
    };
  }
  if (parseError) return { code: "csv_syntax", column: null, message: parseError };
  if (fields.every((f) => f.trim() === "")) return { code: "empty_row", column: null, message: "is an empty line" };
  if (fields.length > headers.length) {
    return {
      code: "field_count",
      column: headers.at(-1) ?? null,
      message: `has ${fields.length} fields, the header ${headers.length}: a value with a comma must be in quotes`,
    };
  }
  if (fields.length < headers.length) {
    return {
      code: "field_count",
      column: headers[fields.length] ?? null,
      message: `has ${fields.length} fields, the header ${headers.length}`,
    };
  }
  return null;
}
