import { Skeleton } from "@/components/ui/skeleton";

/**
 * Shown the moment a link is followed, while the next page renders on the server: the navigation stays, and the
 * page's place shows a title bar and rows. Announced once, politely, for screen readers.
 */
export default function Loading() {
  return (
    <div className="grid gap-5">
      <p role="status" className="sr-only">
        Loading…
      </p>
      <Skeleton className="h-8 w-48" />
      <Skeleton className="h-10 w-full max-w-xl" />
      <div className="grid gap-2">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    </div>
  );
}
