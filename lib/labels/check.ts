import type { LabelType } from "@/lib/carriers/types";

/**
 * Cheap structural checks for label files: enough to refuse a carrier response that is not the file it claims
 * to be, and to pick a Content-Type, without parsing the whole document.
 */

export const LABEL_CONTENT_TYPES: Record<LabelType, string> = {
  PDF: "application/pdf",
  PNG: "image/png",
  ZPL: "application/zpl",
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function ascii(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

/** Starts with `%PDF-` and has an `%%EOF` marker near the end (PDF allows trailing bytes after it). */
export function isPdf(bytes: Uint8Array): boolean {
  if (bytes.length < 16 || ascii(bytes.subarray(0, 5)) !== "%PDF-") return false;
  return ascii(bytes.subarray(Math.max(0, bytes.length - 1024))).includes("%%EOF");
}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length > PNG_SIGNATURE.length && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

/** One or more ZPL formats: trimmed text starts with `^XA` and ends with `^XZ`. */
export function isZpl(text: string): boolean {
  const t = text.trim();
  return t.length >= 6 && t.startsWith("^XA") && t.endsWith("^XZ");
}

export function detectLabelType(bytes: Uint8Array): LabelType | null {
  if (isPdf(bytes)) return "PDF";
  if (isPng(bytes)) return "PNG";
  // A leading UTF-8 byte-order mark is harmless to printers; look past it.
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes).replace(/^\uFEFF/, "");
  if (isZpl(text)) return "ZPL";
  return null;
}
