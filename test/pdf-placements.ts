import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  decodePDFRawStream,
  type PDFPage,
} from "pdf-lib";

/**
 * What a sheet PDF draws, read back from its content streams: each XObject drawn (`Do`), where its box lands on the
 * page and how much it was scaled. Enough to prove a label was laid at 100%, without trusting the code that drew it.
 */

type Matrix = [number, number, number, number, number, number];

export interface Placement {
  kind: "form" | "image";
  /** Lengths of the drawn item's x and y unit vectors on the page: 1 and 1 for a form at 100%. */
  scale: { x: number; y: number };
  /** Counter-clockwise turn in degrees. */
  turn: number;
  /** The item's box on the page. */
  box: { left: number; bottom: number; right: number; top: number };
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m × n in PDF's row-vector convention: apply m first, then n. */
function times(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

function numbers(array: PDFArray): number[] {
  return array.asArray().map((n) => (n as PDFNumber).asNumber());
}

/** The page's content streams as text, one operator per line as pdf-lib writes them. */
export function pageOperators(doc: PDFDocument, page: PDFPage): string {
  const contents = page.node.Contents();
  const streams = contents && "asArray" in contents ? contents.asArray() : [contents];
  let out = "";
  for (const ref of streams) {
    const stream = doc.context.lookup(ref as never);
    if (stream instanceof PDFRawStream) out += new TextDecoder("latin1").decode(decodePDFRawStream(stream).decode());
  }
  return out;
}

export function placements(doc: PDFDocument, page: PDFPage): Placement[] {
  const xobjects = page.node.Resources()?.lookup(PDFName.of("XObject"), PDFDict);
  const found: Placement[] = [];
  const stack: Matrix[] = [];
  let ctm = IDENTITY;
  for (const line of pageOperators(doc, page).split("\n")) {
    const words = line.trim().split(/\s+/);
    const op = words.at(-1);
    if (op === "q") stack.push(ctm);
    else if (op === "Q") ctm = stack.pop() ?? IDENTITY;
    else if (op === "cm") ctm = times(words.slice(0, 6).map(Number) as Matrix, ctm);
    else if (op === "Do" && xobjects) {
      const xobject = doc.context.lookup(xobjects.get(PDFName.of(words[0]!.slice(1))));
      const dict = (xobject as PDFRawStream).dict;
      const form = dict.get(PDFName.of("Subtype")) === PDFName.of("Form");
      let m = ctm;
      let [x0, y0, x1, y1] = [0, 0, 1, 1];
      if (form) {
        [x0, y0, x1, y1] = numbers(dict.lookup(PDFName.of("BBox"), PDFArray)) as [number, number, number, number];
        const matrix = dict.lookup(PDFName.of("Matrix"));
        if (matrix instanceof PDFArray) m = times(numbers(matrix) as Matrix, ctm);
      }
      const corners = [apply(m, x0, y0), apply(m, x1, y0), apply(m, x0, y1), apply(m, x1, y1)];
      const xs = corners.map((c) => c[0]);
      const ys = corners.map((c) => c[1]);
      found.push({
        kind: form ? "form" : "image",
        scale: { x: Math.hypot(m[0], m[1]), y: Math.hypot(m[2], m[3]) },
        turn: Math.round((Math.atan2(m[1], m[0]) * 180) / Math.PI + 360) % 360,
        box: { left: Math.min(...xs), bottom: Math.min(...ys), right: Math.max(...xs), top: Math.max(...ys) },
      });
    }
  }
  return found;
}
