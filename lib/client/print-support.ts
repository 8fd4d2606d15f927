/**
 * How this browser can print a label: Chromium prints a PDF loaded in an off-screen iframe; Safari
 * prints such a frame blank and Firefox does it unreliably, so they get the label in a new tab and print from there.
 * Every browser on iOS is WebKit underneath, whatever its name.
 */
export function printsFromFrame(userAgent: string): boolean {
  if (/Firefox\/|FxiOS\//.test(userAgent)) return false;
  if (/iPhone|iPad|iPod/.test(userAgent)) return false;
  const webkitOnly = /Safari\//.test(userAgent) && !/(Chrome|Chromium|CriOS|Edg|OPR|SamsungBrowser)\//.test(userAgent);
  return !webkitOnly;
}

/** The file name a `Content-Disposition: attachment; filename="…"` answer asks for, or the fallback. */
export function attachmentName(disposition: string | null, fallback: string): string {
  const m = disposition ? /filename="([^"]+)"/.exec(disposition) : null;
  return m?.[1] ?? fallback;
}
