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
