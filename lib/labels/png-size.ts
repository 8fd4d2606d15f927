const PNG_SIGNATURE_LENGTH = 8;
const INCH_PER_METRE = 1 / 0.0254;
/** A label is 4×6 in unless its file says otherwise. */
const LABEL_WIDTH_PT = 288;
const LABEL_HEIGHT_PT = 432;

/** Pixels per metre from the pHYs chunk (unit 1 = metre), or null when the file does not say. */
function pixelsPerMetre(png: Uint8Array): { x: number; y: number } | null {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let at = PNG_SIGNATURE_LENGTH;
  while (at + 8 <= png.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    // pHYs must come before the image data; once IDAT starts there is none.
    if (type === "IDAT" || type === "IEND") return null;
    if (type === "pHYs" && length === 9 && at + 17 <= png.length) {
      if (png[at + 16] !== 1) return null;
      return { x: view.getUint32(at + 8), y: view.getUint32(at + 12) };
    }
    at += 12 + length;
  }
  return null;
}

/** Dots per inch from pixels per metre, snapped to a whole number when that is what the file meant (203, 300). */
function dpi(ppm: number): number {
  const exact = ppm / INCH_PER_METRE;
  return Math.abs(exact - Math.round(exact)) < 0.05 ? Math.round(exact) : exact;
}

/**
 * The printed size of a PNG label in points: from its resolution (pHYs) when it states one, else the image fitted to
 * 4×6 in, the size a label without a stated resolution is meant to be.
 */
export function pngPhysicalSize(png: Uint8Array, widthPx: number, heightPx: number): { width: number; height: number } {
  const ppm = pixelsPerMetre(png);
  if (ppm && ppm.x > 0 && ppm.y > 0) {
    return { width: (widthPx * 72) / dpi(ppm.x), height: (heightPx * 72) / dpi(ppm.y) };
  }
  const portrait = heightPx >= widthPx;
  const [boxW, boxH] = portrait ? [LABEL_WIDTH_PT, LABEL_HEIGHT_PT] : [LABEL_HEIGHT_PT, LABEL_WIDTH_PT];
  const scale = Math.min(boxW / widthPx, boxH / heightPx);
  return { width: widthPx * scale, height: heightPx * scale };
}
