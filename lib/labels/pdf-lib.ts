import { deflateSync } from "node:zlib";

export type PdfLib = typeof import("pdf-lib");

let loading: Promise<PdfLib> | undefined;

/**
 * pdf-lib, loaded the first time a PDF is drawn, read or rewritten. Evaluating it takes ~150 ms, and nearly every
 * module graph reaches it through the carrier adapters (a route's cold start, every test file, every mutant a
 * mutation run tests: docs/testing.md, "Run time"), while few requests ever touch a PDF. Later calls get the same
 * module at once.
 */
export function pdfLib(): Promise<PdfLib> {
  return (loading ??= import("pdf-lib").then((lib) => {
    deflateNatively(lib);
    return lib;
  }));
}

/**
 * pdf-lib compresses the streams it makes (embedded fonts, their character maps, copied pages) with pako, zlib written
 * in JavaScript: a quarter of a label's time. Node's own zlib writes the same format (a zlib stream, `FlateDecode`)
 * several times faster. Only the context's `flateStream` is replaced: what it returns is unchanged, and a page's own
 * content stream, which pdf-lib compresses elsewhere, is small.
 */
function deflateNatively(lib: PdfLib): void {
  const context = lib.PDFContext.prototype as PdfLib["PDFContext"]["prototype"] & { nativeDeflate?: true };
  if (context.nativeDeflate) return;
  context.flateStream = function (this: typeof context, contents, dict = {}) {
    const bytes = typeof contents === "string" ? Buffer.from(contents, "latin1") : contents;
    const deflated = deflateSync(bytes);
    // A plain byte array, as pako gives, rather than a Buffer over it.
    const plain = new Uint8Array(deflated.buffer, deflated.byteOffset, deflated.byteLength);
    return this.stream(plain, { ...dict, Filter: "FlateDecode" });
  };
  context.nativeDeflate = true;
}
