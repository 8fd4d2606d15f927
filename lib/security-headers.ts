/**
 * What every response carries (docs/api.md, "Responses"): next.config.ts sets these on everything Next.js answers,
 * and the front door (lib/front-door.ts) on the few answers it gives before Next.js sees a request.
 * No Content-Security-Policy yet: the dashboard brings one with its pages. No Strict-Transport-Security: TLS ends at
 * the operator's proxy or load balancer, which alone knows whether the domain (and its subdomains) is HTTPS-only.
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
