import { Pagination } from "@/components/ui/pagination";
import { formatCount } from "@/lib/client/format";

export interface ListResultsProps {
  /** How many match, over every page. */
  count: number;
  /** What is counted: one and many ("shipment", "shipments"). */
  noun: readonly [one: string, many: string];
  /** Whether this page has rows: without any, `empty` is shown instead (nothing matched, or past the last page). */
  hasRows: boolean;
  page: number;
  pageCount: number;
  /** The URL of a page, keeping the list's tabs and filters. */
  href: (page: number) => string;
  /** What the page says when it has no rows. */
  empty: React.ReactNode;
  /** The table of this page's rows. */
  children: React.ReactNode;
}

/**
 * The results part of a list page (below its tabs and filters): how many match, the table in its card, and the
 * paging; or, with no rows, the page's own empty state. The shipments, trackers and batches lists are built on it.
 */
export function ListResults({ count, noun, hasRows, page, pageCount, href, empty, children }: ListResultsProps) {
  if (!hasRows) return empty;
  return (
    <>
      <p className="text-sm text-muted-foreground">
        {formatCount(count)} {count === 1 ? noun[0] : noun[1]}
      </p>
      <div className="rounded-lg border bg-card">{children}</div>
      <Pagination page={page} pageCount={pageCount} href={href} />
    </>
  );
}
