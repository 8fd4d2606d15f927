/**
 * Where sign-in (and sign-up, and a signed-out page visit) sends a person afterwards: a path on this site, asked for
 * in `?next=`. Pure, so the pages, the auth form and their tests share one rule.
 */
const DEFAULT_NEXT = "/shipments";

// Longer than any page of ours; a longer `next` is someone's experiment, not a place to come back to.
const MAX_NEXT = 2048;
const BASE = "http://next.invalid";

/**
 * Only a path on this site, as the browser will read it: it must start with one `/`, carry no control character
 * (a browser's URL parser drops tab, CR and LF, so `/\t/evil.test` would become `//evil.test`; and they break the
 * Location header) and no backslash (read as `/`), and must still be a same-site path once resolved (`/.//evil.test`
 * resolves to `//evil.test`). What comes back is the resolved, percent-encoded form, never the raw text.
 */
export function safeNext(value: string | null | undefined): string {
  if (!value || value.length > MAX_NEXT || !value.startsWith("/")) return DEFAULT_NEXT;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return DEFAULT_NEXT;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  return url.origin === BASE && !path.startsWith("//") ? path : DEFAULT_NEXT;
}
