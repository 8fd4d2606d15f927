import bwipjs from "bwip-js/node";
import { toPrintableAscii } from "@/lib/labels/content";

/**
 * Code 128 through bwip-js (a port of Barcode Writer in Pure PostScript), so the symbol — subset switching,
 * check character, stop pattern — is computed by a well-tested encoder rather than by hand.
 *
 * The default-export object is used on purpose: its `raw` is bwip-js's "encode to bar widths" function, whereas
 * the named export `raw` is an unrelated barcode symbology that happens to be called "raw".
 */

export interface Code128Pattern {
  /** Alternating bar/space widths in modules, starting with a bar. */
  widths: number[];
  /** Total width in modules, without quiet zones. */
  modules: number;
}

/** Quiet zone each side, in modules; scanners want at least 10. */
export const CODE128_QUIET_ZONE = 10;

/** Barcode data as bwip-js should see it: printable ASCII, never empty. */
export function code128Text(value: string): string {
  const text = toPrintableAscii(value).trim();
  return text.length > 0 ? text : "0";
}

export function code128Pattern(value: string): Code128Pattern {
  const encoded = bwipjs.raw({ bcid: "code128", text: code128Text(value) });
  const first = encoded[0];
  if (!first || !("sbs" in first)) throw new Error("bwip-js returned no Code 128 bar pattern");
  const widths = first.sbs;
  return { widths, modules: widths.reduce((sum, w) => sum + w, 0) };
}
