import { cn } from "@/components/ui/cn";

/** A plain <label>: the caller passes htmlFor (Field does) or wraps the control. */
export function Label({ className, ...props }: React.ComponentProps<"label">) {
  return (
    <label data-slot="label" className={cn("text-sm leading-none font-medium text-foreground", className)} {...props} />
  );
}
