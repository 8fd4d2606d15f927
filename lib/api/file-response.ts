/** A file handed to its owner as a download: never cached by anyone in between. */
export function fileResponse(file: { content: Uint8Array; contentType: string; filename: string }): Response {
  return new Response(Buffer.from(file.content), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.content.byteLength),
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

/**
 * A part of a batch's print run: the file, how many parts there are, and the lines whose label is not in it with
 * why (`line: reason`, `;`-separated), so nothing is left out silently.
 */
export function printFileResponse(file: {
  content: Uint8Array;
  contentType: string;
  filename: string;
  parts: number;
  notIncluded: { line: number; reason: string }[];
}): Response {
  const res = fileResponse(file);
  res.headers.set("Shipwell-Parts", String(file.parts));
  res.headers.set("Shipwell-Not-Included", file.notIncluded.map((n) => `${n.line}: ${n.reason}`).join("; "));
  return res;
}
