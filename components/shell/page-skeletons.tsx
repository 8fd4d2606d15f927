import { Skeleton } from "@/components/ui/skeleton";

/**
 * What a page shows the moment its link is followed, while the server renders it: the navigation stays, and the
 * page's place takes the shape of the page that is coming (a list's rows, a record's cards, a form), so nothing
 * jumps when it arrives. Each route's `loading.tsx` picks one. Announced once, politely, for screen readers.
 */
function Loading({ children }: { children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-5">
      <p role="status" className="sr-only">
        Loading…
      </p>
      {children}
    </div>
  );
}

function Title({ action = false }: { action?: boolean }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <Skeleton className="h-8 w-48" />
      {action && <Skeleton className="h-9 w-32" />}
    </div>
  );
}

/** A list page: title, tabs and filters, then rows. */
export function ListSkeleton({ tabs = true, rows = 10 }: { tabs?: boolean; rows?: number }) {
  return (
    <Loading>
      <Title action />
      {tabs && <Skeleton className="h-9 w-full max-w-xl" />}
      <Skeleton className="h-9 w-full max-w-2xl" />
      <div className="grid gap-px overflow-hidden rounded-lg border">
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} className="h-12 w-full rounded-none" />
        ))}
      </div>
    </Loading>
  );
}

/** One record: its header, a narrow column of cards beside a wide one. */
export function DetailSkeleton() {
  return (
    <Loading>
      <div className="grid gap-2">
        <Skeleton className="h-5 w-24" />
        <Title action />
        <Skeleton className="h-4 w-72" />
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <Skeleton className="h-72 w-full" />
        <div className="grid gap-6">
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-56 w-full" />
        </div>
      </div>
    </Loading>
  );
}

/** A form of several cards, as the create-label and batch upload pages are. */
export function FormSkeleton({ cards = 3 }: { cards?: number }) {
  return (
    <Loading>
      <Title />
      <div className="grid max-w-3xl gap-5">
        {Array.from({ length: cards }, (_, i) => (
          <Skeleton key={i} className="h-48 w-full" />
        ))}
      </div>
    </Loading>
  );
}

/** The overview: four figures, the daily chart, two cards. */
export function OverviewSkeleton() {
  return (
    <Loading>
      <Title action />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-28 w-full" />
        ))}
      </div>
      <Skeleton className="h-72 w-full" />
      <div className="grid gap-5 lg:grid-cols-2">
        <Skeleton className="h-56 w-full" />
        <Skeleton className="h-56 w-full" />
      </div>
    </Loading>
  );
}
