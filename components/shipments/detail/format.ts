/** How the detail page writes a parcel's size; a plain function, usable on the server and in the browser. */

/** "2.5 kg", "10 × 8 × 4 in"; null when the parcel has no dimensions. */
export function formatDimensions(p: {
  length: number | null;
  width: number | null;
  height: number | null;
  dimension_unit: string | null;
}): string | null {
  if (p.length == null || p.width == null || p.height == null) return null;
  return `${p.length} × ${p.width} × ${p.height} ${(p.dimension_unit ?? "").toLowerCase()}`.trim();
}
