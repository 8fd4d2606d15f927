import { NextResponse, type NextRequest } from "next/server";
import { hasSessionCookie } from "@/lib/auth/session-cookie";

// The pages anyone may open; everything else the matcher sends here needs a session. An invitation link's page
// (/invite/{token}) is public too: it tells a signed-out visitor whom the link is from before they sign up or in.
const PUBLIC_PAGES = new Set(["/sign-in", "/sign-up"]);
// Public tracking pages (/track/{public_id}): the link is the permission.
const isPublic = (pathname: string) =>
  PUBLIC_PAGES.has(pathname) || pathname.startsWith("/track/") || /^\/invite\/[^/]+$/.test(pathname);

/**
 * A cheap first check on page visits (no database): without a session cookie, go to sign-in and come back after.
 * Pages check the session itself again on the server (lib/dashboard/session.ts), which also catches expired and
 * revoked sessions. The path travels in a request header so that check can send the visit back here too.
 */
export function proxy(req: NextRequest) {
  const { pathname, search } = req.nextUrl;
  const path = pathname + search;
  if (!isPublic(pathname) && !hasSessionCookie(req.headers.get("cookie"))) {
    const url = req.nextUrl.clone();
    url.pathname = "/sign-in";
    url.search = `?next=${encodeURIComponent(path)}`;
    return NextResponse.redirect(url);
  }
  const headers = new Headers(req.headers);
  headers.set("x-shipwell-path", path);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Pages only: not the API, not Next.js's own files, not static files with an extension.
  matcher: ["/((?!v1|api|_next|favicon|.*\\.[a-z0-9]+$).*)"],
};
