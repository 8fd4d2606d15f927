"use client";

import type { VariantProps } from "class-variance-authority";
import { Loader2 } from "lucide-react";
import { Slot } from "radix-ui";
import { buttonVariants } from "@/components/ui/button-variants";
import { cn } from "@/components/ui/cn";

export interface ButtonProps extends React.ComponentProps<"button">, VariantProps<typeof buttonVariants> {
  /** Render the child element (a link) with the button's look instead of a <button>. */
  asChild?: boolean;
  /** Disables the button and shows a spinner: the request it started has not answered yet. */
  loading?: boolean;
}

export function Button({
  className,
  variant,
  size,
  asChild = false,
  loading = false,
  disabled,
  children,
  ...props
}: ButtonProps) {
  const Comp = asChild ? Slot.Root : "button";
  return (
    <Comp
      data-slot="button"
      className={cn(buttonVariants({ variant, size }), className)}
      disabled={asChild ? undefined : disabled || loading}
      aria-disabled={asChild && (disabled || loading) ? true : undefined}
      aria-busy={loading || undefined}
      {...props}
    >
      {loading && <Loader2 aria-hidden className="animate-spin" />}
      <Slot.Slottable>{children}</Slot.Slottable>
    </Comp>
  );
}
