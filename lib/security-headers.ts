/**
 * What every response carries (docs/api.md, "Responses"): next.config.ts sets these on everything Next.js answers,
 * and the front door (lib/front-door.ts) on the few answers it gives before Next.js sees a request. Pages carry a
 * Content-Security-Policy too (pagePolicy below, set per visit by proxy.ts). No Strict-Transport-Security: TLS ends
 * at the operator's proxy or load balancer, which alone knows whether the domain (and its subdomains) is HTTPS-only.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // Browsers take a JSON error for JSON, never for HTML or script.
  "X-Content-Type-Options": "nosniff",
  // Nothing here needs to tell another site where a visitor came from; URLs carry ids.
  "Referrer-Policy": "no-referrer",
  // No page of ours is meant to be framed (clickjacking), and none shares a window with another origin.
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/** A page answer's nonce: 128 random bits, new for every visit, so a script injected into a page cannot know it. */
export function cspNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The Content-Security-Policy of a page (a "strict CSP": https://web.dev/articles/strict-csp). Next.js reads the
 * nonce from this header on the request and puts it on every script it writes; `'strict-dynamic'` lets those
 * scripts load the rest (chunks) and makes browsers ignore host lists, so only scripts the server wrote run.
 * `'self'` is there for browsers older than `'strict-dynamic'` (CSP 2), which ignore it.
 *
 * Styles allow `'unsafe-inline'` on purpose, and so carry no nonce (a nonce would make browsers ignore it): the
 * libraries the pages use write styles a nonce cannot reach. Sonner inserts its stylesheet as a `<style>` element
 * when it loads, Radix's scroll lock (react-remove-scroll) inserts one too, React renders `style` attributes on the
 * server (progress bars, the charts' containers), and a label printed from a frame is an inline document. What
 * injected CSS could do is bounded by the rest of the policy: it runs no script and, with images, fonts and
 * connections held to this origin, sends nothing elsewhere.
 *
 * Labels are shown and printed from `blob:` URLs (components/labels): frames and images may load those.
 * In development React evaluates code to rebuild server errors' stacks, which needs `'unsafe-eval'`.
 */
export function pagePolicy(nonce: string, { dev = false }: { dev?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
