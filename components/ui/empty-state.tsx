import type { LucideIcon } from "lucide-react";
import { cn } from "@/components/ui/cn";

export interface EmptyStateProps {
  title: React.ReactNode;
  description?: React.ReactNode;
  icon?: LucideIcon;
  /** Usually the one button that fills the emptiness ("Create label"). */
  action?: React.ReactNode;
  className?: string;
  /** "h1" where the empty state is the whole page (not found, an error); otherwise a plain line inside a page. */
  titleAs?: "h1" | "p";
}

export function EmptyState({
  title,
  description,
  icon: Icon,
  action,
  className,
  titleAs: Title = "p",
}: EmptyStateProps) {
  return (
    <div
      data-slot="empty-state"
      className={cn(
        "flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-12 text-center",
        className,
      )}
    >
      {Icon && <Icon aria-hidden className="mb-1 size-8 text-muted-foreground" />}
      <Title className="text-base font-semibold">{title}</Title>
      {description && <p className="max-w-md text-sm text-muted-foreground">{description}</p>}
      {action && <div className="mt-3">{action}</div>}
    </div>
  );
}
