/**
 * A GIF reader for UPS labels. UPS draws its image labels only as GIF (Shipping.yaml: "Only EPL, SPL, ZPL and GIF
 * are currently supported"), while a PDF can embed PNG or JPEG but not GIF, and our PNG labels must be PNG: so the
 * first frame is decoded here into gray levels and re-encoded by label.ts. No dependency does this for us, and a
 * label needs only the plain part of the format: one frame, a palette, LZW, maybe interlaced, maybe transparent.
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
const MAX_CODE_SIZE = 12;

class Reader {
  at = 0;
  constructor(private readonly bytes: Uint8Array) {}
  byte(): number {
    if (this.at >= this.bytes.length) throw new GifError("the GIF ends early");
    return this.bytes[this.at++]!;
  }
  u16(): number {
    return this.byte() | (this.byte() << 8);
  }
  take(n: number): Uint8Array {
    if (this.at + n > this.bytes.length) throw new GifError("the GIF ends early");
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
  /** Data sub-blocks (length-prefixed, ended by a zero length), joined. */
  blocks(): Uint8Array {
    const parts: Uint8Array[] = [];
    let total = 0;
    for (let size = this.byte(); size > 0; size = this.byte()) {
      const part = this.take(size);
      parts.push(part);
      total += size;
    }
    const out = new Uint8Array(total);
    let offset = 0;
    for (const p of parts) {
      out.set(p, offset);
      offset += p.length;
    }
    return out;
  }
}

/** Gray levels of a palette (ITU-R BT.601 luma), so black-and-white labels stay exactly black and white. */
function grayPalette(rgb: Uint8Array): Uint8Array {
  const out = new Uint8Array(rgb.length / 3);
  for (let i = 0; i < out.length; i++) {
    out[i] = Math.round(0.299 * rgb[i * 3]! + 0.587 * rgb[i * 3 + 1]! + 0.114 * rgb[i * 3 + 2]!);
  }
  return out;
}

/**
 * The palette indexes of up to `count` pixels from LZW data (GIF variant: variable code size, clear and end codes);
 * fewer when the data ends early.
 */
function lzwDecode(data: Uint8Array, minCodeSize: number, count: number): Uint8Array {
  if (minCodeSize < 2 || minCodeSize > 8) throw new GifError("the GIF's LZW code size is invalid");
  const out = new Uint8Array(count);
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const prefix = new Int16Array(1 << MAX_CODE_SIZE);
  const suffix = new Uint8Array(1 << MAX_CODE_SIZE);
  const stack = new Uint8Array((1 << MAX_CODE_SIZE) + 1);
  for (let c = 0; c < clear; c++) suffix[c] = c;

  let codeSize = minCodeSize + 1;
  let mask = (1 << codeSize) - 1;
  let next = clear + 2;
  let previous = -1;
  let first = 0;
  let bits = 0;
  let buffer = 0;
  let pos = 0;
  let written = 0;

  while (written < count) {
    while (bits < codeSize) {
      // A stream that stops short (no end code) leaves the rest of the frame undrawn, as browsers show it.
      if (pos >= data.length) return out.subarray(0, written);
      buffer |= data[pos++]! << bits;
      bits += 8;
    }
    let code = buffer & mask;
    buffer >>>= codeSize;
    bits -= codeSize;

    if (code === clear) {
      codeSize = minCodeSize + 1;
      mask = (1 << codeSize) - 1;
      next = clear + 2;
      previous = -1;
      continue;
    }
    if (code === end) return out.subarray(0, written);
    if (previous === -1) {
      if (code >= clear) throw new GifError("the GIF's image data is corrupt");
      out[written++] = suffix[code]!;
      previous = code;
      first = code;
      continue;
    }

    const current = code;
    let top = 0;
    if (code >= next) {
      // The one code an LZW decoder may see before defining it: previous string + its own first byte.
      if (code > next) throw new GifError("the GIF's image data is corrupt");
      stack[top++] = first;
      code = previous;
    }
    while (code >= clear) {
      stack[top++] = suffix[code]!;
      code = prefix[code]!;
    }
    first = suffix[code]!;
    stack[top++] = first;

    if (next < 1 << MAX_CODE_SIZE) {
      prefix[next] = previous;
      suffix[next] = first;
      next++;
      if ((next & mask) === 0 && next < 1 << MAX_CODE_SIZE) {
        codeSize++;
        mask = (1 << codeSize) - 1;
      }
    }
    previous = current;
    while (top > 0 && written < count) out[written++] = stack[--top]!;
  }
  return out;
}

/** Row order of an interlaced image: every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1. */
function interlacedRows(height: number): number[] {
  const rows: number[] = [];
  for (const [start, step] of [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ] as const) {
    for (let y = start; y < height; y += step) rows.push(y);
  }
  return rows;
}

/** The first frame of a GIF on a white canvas of the file's logical size, in gray levels. */
export function decodeGif(bytes: Uint8Array): GrayBitmap {
  const r = new Reader(bytes);
  const signature = String.fromCharCode(...r.take(6));
  if (signature !== "GIF87a" && signature !== "GIF89a") throw new GifError("not a GIF file");
  const width = r.u16();
  const height = r.u16();
  const flags = r.byte();
  r.byte(); // background colour index: labels are drawn on white whatever it says
  r.byte(); // pixel aspect ratio
  if (width === 0 || height === 0 || width * height > MAX_PIXELS) throw new GifError("the GIF's size is invalid");
  const globalPalette = flags & 0x80 ? grayPalette(r.take(3 * (2 << (flags & 7)))) : null;
  let transparent = -1;

  for (;;) {
    const introducer = r.byte();
    if (introducer === 0x3b) throw new GifError("the GIF has no image");
    if (introducer === 0x21) {
      const label = r.byte();
      const data = r.blocks();
      // Graphic Control Extension: packed flags, delay (2), transparent index.
      if (label === 0xf9 && data.length >= 4) transparent = data[0]! & 1 ? data[3]! : -1;
      continue;
    }
    if (introducer !== 0x2c) throw new GifError("the GIF has an unknown block");

    const left = r.u16();
    const top = r.u16();
    const frameWidth = r.u16();
    const frameHeight = r.u16();
    const frameFlags = r.byte();
    const palette = frameFlags & 0x80 ? grayPalette(r.take(3 * (2 << (frameFlags & 7)))) : globalPalette;
    if (!palette) throw new GifError("the GIF has no palette");
    const minCodeSize = r.byte();
    const indexes = lzwDecode(r.blocks(), minCodeSize, frameWidth * frameHeight);

    const pixels = new Uint8Array(width * height).fill(255);
    const rows = frameFlags & 0x40 ? interlacedRows(frameHeight) : null;
    for (let i = 0; i < frameHeight; i++) {
      const y = top + (rows ? rows[i]! : i);
      if (y >= height) continue;
      for (let x = 0; x < frameWidth && i * frameWidth + x < indexes.length; x++) {
        const index = indexes[i * frameWidth + x]!;
        if (index === transparent || left + x >= width) continue;
        pixels[y * width + left + x] = palette[index] ?? 255;
      }
    }
    return { width, height, pixels };
  }
}
