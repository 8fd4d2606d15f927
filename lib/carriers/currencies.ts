/**
 * A country's currency, for amounts a carrier wants in the origin's currency when the client named none (UPS's
 * invoice line total, FedEx's preferred rating currency). USD where the table has no entry.
 */
const CURRENCIES = new Map([
  ["US", "USD"], ["PR", "USD"], ["CA", "CAD"], ["MX", "MXN"], ["GB", "GBP"], ["PL", "PLN"], ["CH", "CHF"],
  ["SE", "SEK"], ["DK", "DKK"], ["NO", "NOK"], ["CZ", "CZK"], ["HU", "HUF"], ["RO", "RON"], ["BG", "BGN"],
  ["AU", "AUD"], ["NZ", "NZD"], ["JP", "JPY"], ["CN", "CNY"], ["HK", "HKD"], ["SG", "SGD"], ["IN", "INR"],
  ["BR", "BRL"], ["KR", "KRW"], ["TW", "TWD"], ["ZA", "ZAR"], ["AE", "AED"], ["IL", "ILS"], ["TR", "TRY"],
]); // prettier-ignore

const EURO = new Set([
  "AT", "BE", "CY", "DE", "EE", "ES", "FI", "FR", "GR", "HR", "IE", "IT", "LT", "LU", "LV", "MC", "MT", "NL", "PT",
  "SI", "SK",
]); // prettier-ignore

export function currencyOf(country: string): string {
  const c = country.toUpperCase();
  return EURO.has(c) ? "EUR" : (CURRENCIES.get(c) ?? "USD");
}

/** An amount rounded to cents, as carriers take and quote money. */
export const cents = (n: number): number => Math.round(n * 100) / 100;
