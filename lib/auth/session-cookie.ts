/**
 * The session cookie's name, in one place: better-auth writes it (lib/auth/better-auth.ts), withApi and the pages
 * read it (sessions.ts), proxy.ts looks for it without a database, the OpenAPI document names it. Over https it
 * carries the `__Secure-` prefix. No server-only import: proxy.ts uses it too.
 */
export const SESSION_COOKIE_PREFIX = "shipwell";
export const SESSION_COOKIE = `${SESSION_COOKIE_PREFIX}.session_token`;

const PRESENT = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${SESSION_COOKIE.replace(".", "\\.")}=`);

/** Whether a `Cookie` header carries a session cookie at all (cheap: no database, no signature check). */
export function hasSessionCookie(cookieHeader: string | null): boolean {
  return PRESENT.test(cookieHeader ?? "");
}

const VALUE = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${SESSION_COOKIE.replace(".", "\\.")}=([^;]*)`);

/** The session cookie's value as sent (signed token), or null: a key for per-session limits, never checked here. */
export function sessionCookieValue(cookieHeader: string | null): string | null {
  return VALUE.exec(cookieHeader ?? "")?.[1] || null;
}
