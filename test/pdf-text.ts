import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  decodePDFRawStream,
  type PDFObject,
} from "pdf-lib";

/**
 * The text a PDF shows, read back as a PDF reader does: each text object (BT … ET) becomes one line, its strings
 * decoded through their font's ToUnicode map (embedded fonts draw glyph ids, not characters) or as Latin-1 (the
 * standard fonts). Form XObjects (a label laid on a sheet) are read where they are drawn. Enough to prove a label
 * prints what it was given without trusting the code that drew it.
 */

type Decoder = (bytes: number[]) => string;

const latin1: Decoder = (bytes) => String.fromCharCode(...bytes);

function hexBytes(hex: string): number[] {
  const clean = hex.replace(/\s+/g, "");
  const even = clean.length % 2 ? `${clean}0` : clean;
  return Array.from({ length: even.length / 2 }, (_, i) => parseInt(even.slice(i * 2, i * 2 + 2), 16));
}

const utf16 = (hex: string): string => {
  const b = hexBytes(hex);
  return String.fromCharCode(...Array.from({ length: b.length / 2 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!));
};

/** A ToUnicode CMap (bfchar and bfrange, two-byte codes as pdf-lib writes them) as a decoder. */
function toUnicodeDecoder(cmap: string): Decoder {
  const map = new Map<number, string>();
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, src, dst] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
      map.set(parseInt(src!, 16), utf16(dst!));
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, lo, hi, dst] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      const start = utf16(dst!);
      for (let code = parseInt(lo!, 16); code <= parseInt(hi!, 16); code++) {
        const offset = code - parseInt(lo!, 16);
        map.set(code, start.slice(0, -1) + String.fromCharCode(start.charCodeAt(start.length - 1) + offset));
      }
    }
  }
  return (bytes) => {
    let out = "";
    for (let i = 0; i + 1 < bytes.length; i += 2) out += map.get((bytes[i]! << 8) | bytes[i + 1]!) ?? "\ufffd";
    return out;
  };
}

function streamText(doc: PDFDocument, obj: PDFObject | undefined): string {
  const stream = obj instanceof PDFRef ? doc.context.lookup(obj) : obj;
  return stream instanceof PDFRawStream ? new TextDecoder("latin1").decode(decodePDFRawStream(stream).decode()) : "";
}

function dictAt(doc: PDFDocument, dict: PDFDict | undefined, key: string): PDFDict | undefined {
  const value = dict?.get(PDFName.of(key));
  const resolved = value instanceof PDFRef ? doc.context.lookup(value) : value;
  return resolved instanceof PDFDict ? resolved : undefined;
}

const decoders = new WeakMap<PDFDict, Decoder>();

function fontDecoder(doc: PDFDocument, resources: PDFDict | undefined, name: string): Decoder {
  const font = dictAt(doc, dictAt(doc, resources, "Font"), name);
  if (!font) return latin1;
  let decoder = decoders.get(font);
  if (!decoder) {
    const toUnicode = font.get(PDFName.of("ToUnicode"));
    decoder = toUnicode ? toUnicodeDecoder(streamText(doc, toUnicode)) : latin1;
    decoders.set(font, decoder);
  }
  return decoder;
}

const TOKEN = /\/[^\s/<>[\]()]+|<[0-9a-fA-F\s]*>|\((?:\\[\s\S]|[^\\)])*\)|\[|\]|[^\s/<>[\]()]+/g;

function literalBytes(token: string): number[] {
  const body = token.slice(1, -1).replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, e: string) => {
    const named: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };
    return named[e] ?? (/^[0-7]/.test(e) ? String.fromCharCode(parseInt(e, 8)) : e);
  });
  return Array.from(body, (c) => c.charCodeAt(0));
}

function readContent(doc: PDFDocument, content: string, resources: PDFDict | undefined, lines: string[]): void {
  let decode = latin1;
  let line: string | null = null;
  let operands: string[] = [];
  const show = (token: string) => {
    const bytes = token.startsWith("<") ? hexBytes(token.slice(1, -1)) : literalBytes(token);
    line = (line ?? "") + decode(bytes);
  };
  for (const [token] of content.matchAll(TOKEN)) {
    if (token === "BT") line = "";
    else if (token === "ET") {
      if (line) lines.push(line);
      line = null;
    } else if (token === "Tf") decode = fontDecoder(doc, resources, operands.at(-2)!.slice(1));
    else if (token === "Tj" || token === "'" || token === '"') show(operands.at(-1)!);
    else if (token === "TJ") operands.filter((t) => t.startsWith("<") || t.startsWith("(")).forEach(show);
    else if (token === "Do") {
      const xobject = dictAt(doc, resources, "XObject")?.get(PDFName.of(operands.at(-1)!.slice(1)));
      const form = xobject instanceof PDFRef ? doc.context.lookup(xobject) : xobject;
      if (form instanceof PDFRawStream && form.dict.get(PDFName.of("Subtype")) === PDFName.of("Form")) {
        readContent(doc, streamText(doc, form), dictAt(doc, form.dict, "Resources") ?? resources, lines);
      }
    }
    if (/^[A-Za-z'"]+\*?$/.test(token) && token !== "true" && token !== "false") operands = [];
    else operands.push(token);
  }
}

/** Each page's lines of text, in drawing order. */
export async function pdfPageLines(bytes: Uint8Array): Promise<string[][]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
    const lines: string[] = [];
    readContent(doc, refs.map((r) => streamText(doc, r)).join("\n"), page.node.Resources(), lines);
    return lines;
  });
}

/** All the PDF's lines of text, page after page. */
export async function pdfLines(bytes: Uint8Array): Promise<string[]> {
  return (await pdfPageLines(bytes)).flat();
}
