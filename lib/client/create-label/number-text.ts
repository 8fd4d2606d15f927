/** "" is not given (null); a decimal comma is a decimal point; anything else that is not a number is NaN. */
export function numberFromText(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  return /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/.test(trimmed) ? Number(trimmed.replace(",", ".")) : Number.NaN;
}
