import { GifWriter } from "omggif";

/**
 * A GIF of palette indexes (`width × height`, row by row) with `palette` as RGB triples (at most 256), optionally
 * with a transparent palette index: how the emulator draws UPS's image labels, and what the decoder is tested on.
 */
export function encodeGif(
  width: number,
  height: number,
  indexes: Uint8Array,
  palette: [number, number, number][],
  opts: { transparent?: number } = {},
): Uint8Array {
  // omggif wants a power-of-two palette of 0xRRGGBB numbers.
  const size = Math.max(2, 1 << Math.ceil(Math.log2(Math.max(2, palette.length))));
  const colours = Array.from({ length: size }, (_, i) => {
    const [r, g, b] = palette[i] ?? [0, 0, 0];
    return (r << 16) | (g << 8) | b;
  });
  const out = Buffer.alloc(1024 + width * height * 2);
  const writer = new GifWriter(out, width, height, { palette: colours });
  writer.addFrame(
    0,
    0,
    width,
    height,
    Array.from(indexes),
    opts.transparent === undefined ? {} : { transparent: opts.transparent },
  );
  return new Uint8Array(out.subarray(0, writer.end()));
}
