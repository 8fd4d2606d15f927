import { code128Text } from "@/lib/labels/barcode";
import type { LabelContent } from "@/lib/labels/content";
import { LABEL_HEIGHT_DOTS, LABEL_WIDTH_DOTS, layoutLabel, type LabelElement } from "@/lib/labels/layout";

/**
 * ZPL II for a 4×6 label on a 203 dpi printer.
 *
 * User text (names, streets, references) goes into field data. In ZPL a `^` or `~` anywhere starts a command —
 * even inside ^FD — so a name like `Eve^XZ^XA…` could end the label early and print or configure something else.
 * Every field is therefore sent with ^FH (field hexadecimal): `^`, `~` and the hex indicator `_` itself are
 * written as `_5E`, `_7E`, `_5F`, which the printer turns back into the literal characters. The text still
 * prints as typed, and no user input can reach the command parser. `\` is doubled because ^FB gives it a meaning
 * of its own (`\&` = line break). Control characters were already turned into spaces by the layout.
 * ^CI28 makes the printer read the remaining bytes as UTF-8, so accented names print correctly. Its built-in font 0
 * has Latin-1 only: other scripts need a font loaded on the printer, so the sandbox warns at purchase
 * (SBX_TEXT_NOT_PRINTABLE, lib/carriers/sandbox/label.ts) and a PDF or PNG label is the one that prints them.
 */

const HEX_ESCAPED: Record<string, string> = { "^": "_5E", "~": "_7E", _: "_5F" };

/** Field data safe to put after `^FH^FD` (the default `_` hex indicator). */
export function escapeZplField(text: string): string {
  return text.replace(/[\^~_\\\r\n]/g, (ch) => {
    if (ch === "\\") return "\\\\";
    if (ch === "\r" || ch === "\n") return " ";
    return HEX_ESCAPED[ch] ?? ch;
  });
}

function fontWidth(size: number): number {
  // Font 0 is a condensed face; at 85 % of the height it matches the advance the layout budgets for.
  return Math.round(size * 0.85);
}

function element(el: LabelElement): string {
  switch (el.kind) {
    case "text": {
      const just = el.align === "center" ? "C" : "L";
      // ^FB with one line keeps the text inside its box and lets the printer centre it.
      return `^FO${el.x},${el.y}^A0N,${el.size},${fontWidth(el.size)}^FB${el.width},1,0,${just},0^FH^FD${escapeZplField(el.text)}^FS`;
    }
    case "box":
      // A box whose border is as thick as its smaller side is a solid bar.
      return `^FO${el.x},${el.y}^GB${el.width},${el.height},${Math.min(el.width, el.height)},B,0^FS`;
    case "barcode":
      // ^BC mode A: the printer picks Code 128 subsets itself, like bwip-js does for the PDF and PNG.
      return `^FO${el.x},${el.y}^BY${el.moduleWidth},3,${el.height}^BCN,${el.height},N,N,N,A^FH^FD${escapeZplField(code128Text(el.value))}^FS`;
  }
}

export function renderZplLabel(content: LabelContent): string {
  const lines = [
    "^XA",
    "^CI28",
    `^PW${LABEL_WIDTH_DOTS}`,
    `^LL${LABEL_HEIGHT_DOTS}`,
    "^LH0,0",
    ...layoutLabel(content).map(element),
    "^PQ1",
    "^XZ",
  ];
  return lines.join("\n");
}
