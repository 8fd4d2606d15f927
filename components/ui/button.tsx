"use client";

import type { VariantProps } from "class-variance-authority";
import { Loader2 } from "lucide-react";
import { Slot } from "radix-ui";
import { buttonVariants } from "@/components/ui/button-variants";
import { cn } from "@/components/ui/cn";
import { useBrowserValue } from "@/components/ui/use-browser-value";

export interface ButtonProps extends React.ComponentProps<"button">, VariantProps<typeof buttonVariants> {
  /** Render the child element (a link) with the button's look instead of a <button>. */
  asChild?: boolean;
  /** Disables the button and shows a spinner: the request it started has not answered yet. */
  loading?: boolean;
  /**
   * A submit button waits for the page's script: before it runs, the browser itself would send a form meant for
   * script, as a GET of the page with every field in its address (a password among them). Set this on a form that
   * works without script (a server action, a filter form whose GET is the point).
   */
  submitsWithoutScript?: boolean;
}

/** False in the server's HTML and while it hydrates, true once React runs the page. */
const useHydrated = () =>
  useBrowserValue(
    () => true,
    () => false,
  );

export function Button({
  className,
  variant,
  size,
  asChild = false,
  loading = false,
  disabled,
  submitsWithoutScript = false,
  children,
  ...props
}: ButtonProps) {
  const Comp = asChild ? Slot.Root : "button";
  // A <button>'s own default is submit. A Button submits only when it says so, so a copy or a filter button placed
  // in a form never sends it, and every button that does submit is one held back below until the script runs.
  const type = asChild ? props.type : (props.type ?? "button");
  const waiting = !useHydrated() && type === "submit" && !submitsWithoutScript;
  return (
    <Comp
      data-slot="button"
      className={cn(buttonVariants({ variant, size }), className)}
      disabled={asChild ? undefined : disabled || loading || waiting}
      aria-disabled={asChild && (disabled || loading) ? true : undefined}
      aria-busy={loading || undefined}
      {...props}
      type={type}
    >
      {loading && <Loader2 aria-hidden className="animate-spin" />}
      <Slot.Slottable>{children}</Slot.Slottable>
    </Comp>
  );
}
