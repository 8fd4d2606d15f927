import { GifReader } from "omggif";

/**
 * UPS draws its image labels only as GIF (Shipping.yaml: "Only EPL, SPL, ZPL and GIF are currently supported"),
 * while a PDF embeds PNG or JPEG but not GIF, and our PNG labels must be PNG: so the first frame is decoded (omggif,
 * the GIF codec pdf and image libraries build on) into gray levels and re-encoded by label.ts.
 */

export interface GrayBitmap {
  width: number;
  height: number;
  /** One byte per pixel, 0 black … 255 white, row by row. */
  pixels: Uint8Array;
}

export class GifError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GifError";
  }
}

// A label is a few million pixels at most; refuse a header that claims more rather than allocate it.
const MAX_PIXELS = 40_000_000;

/** The first frame of a GIF on a white canvas of the file's logical size, in gray levels. */
export function decodeGif(bytes: Uint8Array): GrayBitmap {
  let reader: GifReader;
  try {
    reader = new GifReader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (err) {
    throw new GifError(`not a readable GIF: ${(err as Error).message}`);
  }
  const { width, height } = reader;
  if (width === 0 || height === 0 || width * height > MAX_PIXELS) throw new GifError("the GIF's size is invalid");
  if (reader.numFrames() === 0) throw new GifError("the GIF has no image");
  // Transparent pixels stay as the canvas was: white, as labels are printed on white.
  const rgba = new Uint8Array(width * height * 4).fill(255);
  try {
    reader.decodeAndBlitFrameRGBA(0, rgba);
  } catch (err) {
    throw new GifError(`the GIF's image cannot be read: ${(err as Error).message}`);
  }
  const pixels = new Uint8Array(width * height);
  for (let i = 0; i < pixels.length; i++) {
    // ITU-R BT.601 luma; a label's palette is black and white, so this only matters for anti-aliased edges.
    pixels[i] = Math.round(0.299 * rgba[i * 4]! + 0.587 * rgba[i * 4 + 1]! + 0.114 * rgba[i * 4 + 2]!);
  }
  return { width, height, pixels };
}
