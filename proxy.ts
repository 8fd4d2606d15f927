import { NextResponse, type NextRequest } from "next/server";
import { hasSessionCookie } from "@/lib/auth/session-cookie";
import { isDatabaseDown } from "@/lib/db/down";
import { cspNonce, pagePolicy } from "@/lib/security-headers";

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
 *
 * Every page answer carries its Content-Security-Policy, with a nonce of its own (lib/security-headers.ts). The
 * policy is set on the request too: that is where Next.js reads the nonce it puts on its scripts.
 *
 * While the database is known to be away (the circuit in lib/db is open) a page cannot be rendered: the visit is
 * answered 503 with Retry-After at once, by a page that asks again by itself (docs/api.md, "When the database is
 * down"), rather than an error page with a 500 after a wait. A page that found the database away mid-render comes
 * back here (lib/dashboard/session.ts).
 */
export function proxy(req: NextRequest) {
  const { pathname, search } = req.nextUrl;
  const path = pathname + search;
  // NODE_ENV is fixed when Next.js builds (or runs `next dev`), not a setting: lib/env.ts has nothing to add here.
  const policy = pagePolicy(cspNonce(), { dev: process.env.NODE_ENV === "development" });
  let res: NextResponse;
  if (isDatabaseDown()) {
    res = new NextResponse(UNAVAILABLE_PAGE, {
      status: 503,
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Retry-After": RETRY_AFTER_S,
        "Cache-Control": "no-store",
      },
    });
  } else if (!isPublic(pathname) && !hasSessionCookie(req.headers.get("cookie"))) {
    const url = req.nextUrl.clone();
    url.pathname = "/sign-in";
    url.search = `?next=${encodeURIComponent(path)}`;
    res = NextResponse.redirect(url);
  } else {
    const headers = new Headers(req.headers);
    headers.set("x-shipwell-path", path);
    headers.set("Content-Security-Policy", policy);
    res = NextResponse.next({ request: { headers } });
  }
  res.headers.set("Content-Security-Policy", policy);
  return res;
}

const RETRY_AFTER_S = "5";
// No script and no style of its own: it needs nothing the policy would have to allow. The refresh asks again.
const UNAVAILABLE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${RETRY_AFTER_S}"><title>Shipwell is unavailable for a moment</title></head>
<body><main><h1>Shipwell cannot reach its database</h1>
<p>Nothing you did caused this, and nothing was lost. This page tries again every ${RETRY_AFTER_S} seconds.</p>
</main></body></html>
`;

export const config = {
  // Pages only: not the API, not Next.js's own files, not the one static file (public/). Any other path is a page or
  // the not-found page, and gets the policy too, extension or not ("/shipments/x.pdf").
  matcher: ["/((?!v1/|v1$|api/|_next/|favicon\\.svg$).*)"],
};
