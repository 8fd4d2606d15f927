import { PNG } from "pngjs";
import type { LabelType } from "@/lib/carriers/types";
import { pdfLib } from "@/lib/labels/pdf-lib";
import { printAtActualSize } from "@/lib/labels/print-ready";
import { withResolution } from "@/lib/labels/png";
import { decodeGif, type GrayBitmap } from "@/lib/carriers/ups/gif";

/**
 * UPS labels as our label types. UPS sells ZPL (passed through) and GIF images; a GIF label is a 4×6 label drawn
 * sideways (landscape, about 1400×800 at 200 dpi with a blank strip on the right). We cut the blank strip, turn the
 * label upright (a quarter turn clockwise), and answer it as a PNG, or as a PDF with one 4×6 in page per package.
 */

/** A 4×6 inch page in points. */
const PAGE_WIDTH = 288;
const PAGE_HEIGHT = 432;
const LABEL_ASPECT = 6 / 4;
// Anti-aliased or dithered edges are never pure white; anything this light counts as paper.
const PAPER = 240;

/** What UPS's ShippingLabel holds for one package. */
export interface UpsLabelImage {
  /** `ImageFormat.Code`: GIF, ZPL, … */
  format: string;
  bytes: Uint8Array;
}

function columnIsBlank(image: GrayBitmap, x: number): boolean {
  for (let y = 0; y < image.height; y++) if (image.pixels[y * image.width + x]! < PAPER) return false;
  return true;
}

/** The image without the blank strip beyond a 6:4 label, when that strip is indeed blank. */
function cropBlankStrip(image: GrayBitmap): GrayBitmap {
  const width = Math.round(image.height * LABEL_ASPECT);
  if (image.width <= width) return image;
  for (let x = width; x < image.width; x++) if (!columnIsBlank(image, x)) return image;
  const pixels = new Uint8Array(width * image.height);
  for (let y = 0; y < image.height; y++) {
    pixels.set(image.pixels.subarray(y * image.width, y * image.width + width), y * width);
  }
  return { width, height: image.height, pixels };
}

/** A quarter turn clockwise: the top-left corner goes to the top right. */
function turnClockwise(image: GrayBitmap): GrayBitmap {
  const { width, height } = image;
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < height; x++) pixels[y * height + x] = image.pixels[(height - 1 - x) * width + y]!;
  }
  return { width: height, height: width, pixels };
}

/** The label upright: portrait, the blank strip gone. */
export function uprightLabel(image: GrayBitmap): GrayBitmap {
  const cropped = cropBlankStrip(image);
  return cropped.width > cropped.height ? turnClockwise(cropped) : cropped;
}

/** Dots per inch that make the image fill a 4×6 label (the tighter of its two sides). */
function labelDpi(image: GrayBitmap): number {
  return Math.max(image.width / 4, image.height / 6);
}

function encodePng(image: GrayBitmap): Uint8Array {
  const png = new PNG({
    width: image.width,
    height: image.height,
    colorType: 0,
    inputColorType: 0,
    inputHasAlpha: false,
  });
  png.data = Buffer.from(image.pixels.buffer, image.pixels.byteOffset, image.pixels.byteLength);
  const encoded = PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false, deflateLevel: 9 });
  return withResolution(new Uint8Array(encoded), labelDpi(image));
}

function uprightPng(gif: Uint8Array): Uint8Array {
  return encodePng(uprightLabel(decodeGif(gif)));
}

async function pdfOf(gifs: Uint8Array[]): Promise<Uint8Array> {
  const { PDFDocument } = await pdfLib();
  const doc = await PDFDocument.create();
  doc.setProducer("shipwell");
  doc.setCreator("shipwell");
  await printAtActualSize(doc);
  for (const gif of gifs) {
    const image = uprightLabel(decodeGif(gif));
    const embedded = await doc.embedPng(encodePng(image));
    const scale = Math.min(PAGE_WIDTH / image.width, PAGE_HEIGHT / image.height);
    const width = image.width * scale;
    const height = image.height * scale;
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    page.drawImage(embedded, { x: (PAGE_WIDTH - width) / 2, y: (PAGE_HEIGHT - height) / 2, width, height });
  }
  return doc.save();
}

/**
 * The label file of `type` from UPS's labels (one per package, all in the format we asked for). The caller has
 * checked the count (a PNG holds one label) and the formats.
 */
export async function labelFile(type: LabelType, labels: UpsLabelImage[]): Promise<Uint8Array> {
  switch (type) {
    case "ZPL": {
      const text = labels.map((l) => new TextDecoder().decode(l.bytes).trim()).join("\n");
      return new TextEncoder().encode(text + "\n");
    }
    case "PNG":
      return uprightPng(labels[0]!.bytes);
    case "PDF":
      return pdfOf(labels.map((l) => l.bytes));
  }
}

/** The UPS `LabelImageFormat.Code` to ask for: UPS draws images only as GIF. */
export function upsImageFormat(type: LabelType): "GIF" | "ZPL" {
  return type === "ZPL" ? "ZPL" : "GIF";
}
