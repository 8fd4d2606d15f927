/**
 * Labels travel as base64 text wrapped at 76 characters (docs/api.md, "Resources"; the MIME line length), which is what
 * clients of EasyPost/karrio-style APIs expect and what `base64 -d` and every decoder accept.
 */

export const BASE64_LINE_LENGTH = 76;

/** Base64 with a `\n` after every 76 characters; no trailing newline. */
export function wrapBase64(bytes: Uint8Array): string {
  const flat = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  const lines: string[] = [];
  for (let i = 0; i < flat.length; i += BASE64_LINE_LENGTH) lines.push(flat.slice(i, i + BASE64_LINE_LENGTH));
  return lines.join("\n");
}

/**
 * Decodes wrapped or unwrapped base64 (any whitespace, CRLF included). Throws on characters outside the base64
 * alphabet instead of silently dropping them, as Node's decoder would.
 */
export function unwrapBase64(text: string): Uint8Array {
  const flat = text.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(flat) || flat.length % 4 === 1) {
    throw new Error("not valid base64");
  }
  return new Uint8Array(Buffer.from(flat, "base64"));
}
