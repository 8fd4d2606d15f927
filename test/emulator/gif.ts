/**
 * A GIF89a writer for the emulator's label images: one frame, a small palette, LZW with variable code sizes and a
 * clear code when the table fills, as UPS's own GIFs are. Written independently of the adapter's reader
 * (lib/carriers/ups/gif.ts), so that the reader is tested against something it did not make.
 */

const MAX_CODES = 4096;

class BitWriter {
  private readonly bytes: number[] = [];
  private buffer = 0;
  private bits = 0;

  write(code: number, size: number): void {
    this.buffer |= code << this.bits;
    this.bits += size;
    while (this.bits >= 8) {
      this.bytes.push(this.buffer & 0xff);
      this.buffer >>>= 8;
      this.bits -= 8;
    }
  }

  finish(): number[] {
    if (this.bits > 0) this.bytes.push(this.buffer & 0xff);
    return this.bytes;
  }
}

function lzwEncode(indexes: Uint8Array, minCodeSize: number): number[] {
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const out = new BitWriter();
  let size = minCodeSize + 1;
  let next = end + 1;
  let table = new Map<number, number>();
  out.write(clear, size);
  let prefix = indexes[0]!;
  for (let i = 1; i < indexes.length; i++) {
    const k = indexes[i]!;
    const key = prefix * 256 + k;
    const known = table.get(key);
    if (known !== undefined) {
      prefix = known;
      continue;
    }
    out.write(prefix, size);
    if (next === MAX_CODES) {
      out.write(clear, size);
      table = new Map();
      next = end + 1;
      size = minCodeSize + 1;
    } else {
      // The reader widens its codes one entry later than the writer adds them: widen before the entry that needs it.
      if (next >= 1 << size) size++;
      table.set(key, next++);
    }
    prefix = k;
  }
  out.write(prefix, size);
  out.write(end, size);
  return out.finish();
}

/** Rows in the order an interlaced GIF stores them: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1. */
function interlace(indexes: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(indexes.length);
  let row = 0;
  for (const [start, step] of [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ] as const) {
    for (let y = start; y < height; y += step) out.set(indexes.subarray(y * width, (y + 1) * width), width * row++);
  }
  return out;
}

/**
 * A GIF of palette indexes (`width × height`, row by row) with `palette` as RGB triples (at most 256), optionally
 * interlaced and with a transparent palette index.
 */
export function encodeGif(
  width: number,
  height: number,
  indexes: Uint8Array,
  palette: [number, number, number][],
  opts: { interlaced?: boolean; transparent?: number } = {},
) {
  const bitsPerColour = Math.max(1, Math.ceil(Math.log2(palette.length)));
  const tableSize = 1 << bitsPerColour;
  const minCodeSize = Math.max(2, bitsPerColour);
  const bytes: number[] = [];
  const u16 = (v: number) => bytes.push(v & 0xff, (v >> 8) & 0xff);
  bytes.push(...Buffer.from("GIF89a", "ascii"));
  u16(width);
  u16(height);
  bytes.push(0x80 | ((bitsPerColour - 1) << 4) | (bitsPerColour - 1), 0, 0);
  for (let i = 0; i < tableSize; i++) bytes.push(...(palette[i] ?? [0, 0, 0]));
  if (opts.transparent !== undefined) bytes.push(0x21, 0xf9, 4, 1, 0, 0, opts.transparent, 0);
  bytes.push(0x2c);
  u16(0);
  u16(0);
  u16(width);
  u16(height);
  bytes.push(opts.interlaced ? 0x40 : 0, minCodeSize);
  const data = lzwEncode(opts.interlaced ? interlace(indexes, width, height) : indexes, minCodeSize);
  for (let i = 0; i < data.length; i += 255) {
    const block = data.slice(i, i + 255);
    bytes.push(block.length, ...block);
  }
  bytes.push(0, 0x3b);
  return new Uint8Array(bytes);
}
