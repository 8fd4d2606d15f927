import Papa from "papaparse";

/** One CSV record: its first line in the file (the header is line 1) and its values by header, or its problem. */
type CsvRecord =
  | { line: number; values: Record<string, string>; problem: null }
  | { line: number; values: Record<string, string>; problem: { code: string; column: string | null; message: string } };

export interface CsvRead {
  headers: string[];
  records: CsvRecord[];
}

/** A file the reader cannot take as a whole (no header, nothing but a header): the request's own error. */
export class CsvFileError extends Error {}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const LENIENT = new TextDecoder("utf-8");

/** Lines (1-based) whose bytes are not UTF-8: each is a row error, never a reason to refuse the file. */
function nonUtf8Lines(bytes: Uint8Array): Set<number> {
  const bad = new Set<number>();
  let start = 0;
  let line = 1;
  for (let i = 0; i <= bytes.length; i++) {
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
 * name it; an empty line and a row with more or fewer fields than the header are rows' problems too.
 */
export function readCsv(input: Uint8Array | string): CsvRead {
  const bytes = typeof input === "string" ? null : input;
  let text = bytes ? LENIENT.decode(bytes) : (input as string);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const badLines = bytes ? nonUtf8Lines(bytes) : new Set<number>();
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ";" : ",";

  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: false, header: false });
  // Where each record starts: papaparse gives rows, not lines, so lines are counted through the rows' text.
  const rows = parsed.data;
  if (rows.length === 0 || rows[0]!.every((h) => h.trim() === ""))
    throw new CsvFileError("The CSV file has no header row.");
  const headers = rows[0]!.map((h) => h.trim());
  const seen = new Set<string>();
  for (const h of headers) {
    if (h === "") throw new CsvFileError("A column of the header row has no name.");
    if (seen.has(h)) throw new CsvFileError(`The header row names the column "${h.slice(0, 60)}" twice.`);
    seen.add(h);
  }
  const rowErrors = new Map<number, string>();
  for (const e of parsed.errors) if (e.row !== undefined) rowErrors.set(e.row, e.message);

  const records: CsvRecord[] = [];
  let line = 1 + lineCount(rows[0]!);
  for (let r = 1; r < rows.length; r++) {
    const fields = rows[r]!;
    const spans = lineCount(fields);
    const here = line;
    line += spans;
    // The newline ending the file is no record.
    if (r === rows.length - 1 && fields.length === 1 && fields[0] === "") break;
    const values: Record<string, string> = {};
    headers.forEach((h, i) => (values[h] = fields[i] ?? ""));
    const problem = recordProblem(fields, headers, here, spans, badLines, rowErrors.get(r));
    records.push(problem ? { line: here, values, problem } : { line: here, values, problem: null });
  }
  return { headers, records };
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
  if (parseError) return { code: "csv_syntax", column: null, message: parseError };
  return null;
}
