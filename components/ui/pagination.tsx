import Link from "next/link";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { buttonVariants } from "@/components/ui/button-variants";
import { cn } from "@/components/ui/cn";
import { formatCount } from "@/lib/client/format";

export interface PaginationProps {
  /** 1-based. */
  page: number;
  pageCount: number;
  /** The URL of a page (keeps the list's other filters). */
  href: (page: number) => string;
  className?: string;
}

/** Previous / next links around "Page x of y"; an end that does not exist is shown disabled, not as a link. */
export function Pagination({ page, pageCount, href, className }: PaginationProps) {
  if (pageCount <= 1) return null;
  const edge = (target: number, enabled: boolean, children: React.ReactNode, rel: "prev" | "next") =>
    enabled ? (
      <Link href={href(target)} rel={rel} className={buttonVariants({ variant: "outline", size: "sm" })}>
        {children}
      </Link>
    ) : (
      <span aria-disabled className={buttonVariants({ variant: "outline", size: "sm" })}>
        {children}
      </span>
    );
  return (
    <nav aria-label="Pagination" className={cn("flex items-center justify-between gap-3", className)}>
      {edge(
        page - 1,
        page > 1,
        <>
          <ChevronLeft aria-hidden />
          Previous
        </>,
        "prev",
      )}
      <p className="text-sm text-muted-foreground tabular-nums">
        Page {formatCount(page)} of {formatCount(pageCount)}
      </p>
      {edge(
        page + 1,
        page < pageCount,
        <>
          Next
          <ChevronRight aria-hidden />
        </>,
        "next",
      )}
    </nav>
  );
}
