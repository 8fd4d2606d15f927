import { cn } from "@/components/ui/cn";

/** A grey placeholder the size of what is loading; hidden from screen readers (announce loading elsewhere). */
export function Skeleton({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div aria-hidden data-slot="skeleton" className={cn("animate-pulse rounded-md bg-accent", className)} {...props} />
  );
}
