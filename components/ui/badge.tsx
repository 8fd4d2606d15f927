import { cva, type VariantProps } from "class-variance-authority";
import { FlaskConical } from "lucide-react";
import { cn } from "@/components/ui/cn";

export const badgeVariants = cva(
  "inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap [&_svg]:size-3.5 [&_svg]:shrink-0",
  {
    variants: {
      tone: {
        neutral: "border-neutral-border bg-neutral-muted text-neutral",
        info: "border-info-border bg-info-muted text-info",
        success: "border-success-border bg-success-muted text-success",
        warning: "border-warning-border bg-warning-muted text-warning",
        danger: "border-destructive-border bg-destructive-muted text-destructive",
      },
    },
    defaultVariants: { tone: "neutral" },
  },
);

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>["tone"]>;

export function Badge({
  className,
  tone,
  ...props
}: React.ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return <span data-slot="badge" className={cn(badgeVariants({ tone }), className)} {...props} />;
}

/** Marks a test-mode record or connection: nothing bought with it ships. */
export function TestBadge({ className }: { className?: string }) {
  return (
    <Badge tone="warning" className={className} title="Test mode: not a real label">
      <FlaskConical aria-hidden />
      TEST
    </Badge>
  );
}
