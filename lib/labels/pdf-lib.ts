export type PdfLib = typeof import("pdf-lib");

/**
 * pdf-lib, loaded the first time a PDF is drawn, read or rewritten. Evaluating it takes ~150 ms, and nearly every
 * module graph reaches it through the carrier adapters (a route's cold start, every test file, every mutant a
 * mutation run tests: docs/testing.md, "Run time"), while few requests ever touch a PDF. Node loads a
 * module once, so later calls get the same one at once.
 */
export function pdfLib(): Promise<PdfLib> {
  return import("pdf-lib");
}
