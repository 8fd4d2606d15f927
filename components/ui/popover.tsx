"use client";

import { Popover as PopoverPrimitive } from "radix-ui";
import { cn } from "@/components/ui/cn";

/**
 * Radix's Popover, styled: a panel anchored to its trigger that takes the focus when it opens, closes on Escape or a
 * click outside, and gives the focus back to the trigger.
 */
export const Popover = PopoverPrimitive.Root;
export const PopoverTrigger = PopoverPrimitive.Trigger;

export function PopoverContent({
  className,
  align = "start",
  sideOffset = 4,
  ...props
}: React.ComponentProps<typeof PopoverPrimitive.Content>) {
  return (
    <PopoverPrimitive.Portal>
      <PopoverPrimitive.Content
        data-slot="popover-content"
        align={align}
        sideOffset={sideOffset}
        className={cn(
          "z-50 w-[min(24rem,calc(100vw-2rem))] rounded-md border bg-popover p-3 text-popover-foreground shadow-md outline-none",
          className,
        )}
        {...props}
      />
    </PopoverPrimitive.Portal>
  );
}
