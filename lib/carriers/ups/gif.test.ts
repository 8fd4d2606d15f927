import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeGif, GifError } from "@/lib/carriers/ups/gif";
import { uprightLabel } from "@/lib/carriers/ups/label";
import { encodeGif } from "@/test/emulator/gif";
import shipSuccess from "./fixtures/ship-response-success.json";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const labelGif = () =>
  new Uint8Array(
    Buffer.from(shipSuccess.ShipmentResponse.ShipmentResults.PackageResults[0]!.ShippingLabel.GraphicImage, "base64"),
  );

/** Deterministic noise (no Math.random: a failure must repeat). */
function noise(count: number, colours: number, seed = 1): Uint8Array {
  const out = new Uint8Array(count);
  let x = seed;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = (x >>> 16) % colours;
  }
  return out;
}

const grays = (n: number): [number, number, number][] =>
  Array.from({ length: n }, (_, i) => {
    const v = Math.round((i * 255) / Math.max(1, n - 1));
    return [v, v, v];
  });

describe("decodeGif", () => {
  it("reads a label GIF written by another encoder (libvips/cgif) to the pixels libvips reads from it", () => {
    // The fixture's GIF was made with sharp (libvips + cgif) from a label drawn by lib/labels; the hash is of the
    // gray pixels sharp decoded from that same file when the fixture was made.
    const image = decodeGif(labelGif());
    expect([image.width, image.height]).toEqual([1418, 812]);
    expect(sha256(image.pixels)).toBe("b3a26ad2d3a3f4cbba5dee56c1d1795e337bc96d47affdc2076f4bf4709b774c");
  });

  it.each([2, 4, 16, 256])(
    "round-trips %i colours of noise (codes grow to 12 bits, the table fills and clears)",
    (colours) => {
      const [width, height] = [257, 181];
      const indexes = noise(width * height, colours, colours);
      const palette = grays(colours);
      const image = decodeGif(encodeGif(width, height, indexes, palette));
      expect(image.pixels).toEqual(Uint8Array.from(indexes, (i) => palette[i]![0]));
    },
  );

  it("draws the transparent colour as paper", () => {
    const [width, height] = [40, 27];
    const indexes = noise(width * height, 4, 7);
    const palette = grays(4);
    const transparent = decodeGif(encodeGif(width, height, indexes, palette, { transparent: 0 }));
    expect(transparent.pixels).toEqual(Uint8Array.from(indexes, (i) => (i === 0 ? 255 : palette[i]![0])));
  });

  it("refuses what is not a GIF, or a GIF without an image", () => {
    expect(() => decodeGif(new TextEncoder().encode("%PDF-1.7 not a gif"))).toThrow(GifError);
    expect(() => decodeGif(Uint8Array.from([...Buffer.from("GIF89a"), 1, 0, 1, 0, 0, 0, 0, 0x3b]))).toThrow(GifError);
    expect(() => decodeGif(labelGif().subarray(0, 500))).toThrow(GifError);
  });
});

describe("uprightLabel", () => {
  it("cuts the blank strip beyond a 6×4 label and turns it a quarter clockwise", () => {
    // A 9×4 landscape image whose 6×4 label has one black dot at its bottom-left; the 3 columns beyond are blank.
    const pixels = new Uint8Array(9 * 4).fill(255);
    pixels[3 * 9 + 0] = 0;
    const upright = uprightLabel({ width: 9, height: 4, pixels });
    expect([upright.width, upright.height]).toEqual([4, 6]);
    expect(upright.pixels[0]).toBe(0); // the label's top-left once upright
    expect([...upright.pixels].filter((p) => p === 0)).toHaveLength(1);
  });

  it("keeps a strip that is not blank, and leaves a portrait image as it is", () => {
    const pixels = new Uint8Array(9 * 4).fill(255);
    pixels[8] = 0;
    expect(uprightLabel({ width: 9, height: 4, pixels })).toMatchObject({ width: 4, height: 9 });
    const portrait = { width: 4, height: 6, pixels: new Uint8Array(24) };
    expect(uprightLabel(portrait)).toBe(portrait);
  });
});
