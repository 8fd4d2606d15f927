import type { PageQuery } from "@/lib/schemas/pagination";

/** The list body (docs/api.md, "Managed mode: shipments"): `{count, next, previous, results}` with relative links that keep the other filters. */
export function paginate<T>(req: Request, page: PageQuery, count: number, results: T[]) {
  const url = new URL(req.url);
  const link = (offset: number) => {
    const params = new URLSearchParams(url.search);
    params.set("limit", String(page.limit));
    params.set("offset", String(offset));
    return `${url.pathname}?${params.toString()}`;
  };
  return {
    count,
    next: page.offset + page.limit < count ? link(page.offset + page.limit) : null,
    previous: page.offset > 0 ? link(Math.max(0, page.offset - page.limit)) : null,
    results,
  };
}

/** A cursor-paged list body: `{next, next_cursor, results}`; `next` is the same query with the cursor moved on. */
export function cursorPaginate<T>(req: Request, nextCursor: string | null, results: T[]) {
  const url = new URL(req.url);
  url.searchParams.set("cursor", nextCursor ?? "");
  return {
    next: nextCursor === null ? null : `${url.pathname}?${url.searchParams.toString()}`,
    next_cursor: nextCursor,
    results,
  };
}
