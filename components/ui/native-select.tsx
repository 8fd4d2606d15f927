import { ChevronDown } from "lucide-react";
import { cn } from "@/components/ui/cn";
import { controlClasses } from "@/components/ui/input";

/**
 * The browser's own <select>: for long lists (countries, states) where typing a letter to jump matters more than
 * looks, and for filters that must work before scripts load.
 */
export function NativeSelect({ className, children, ...props }: React.ComponentProps<"select">) {
  return (
    <div className="relative">
      <select
        data-slot="native-select"
        className={cn(controlClasses, "h-9 appearance-none py-1 pr-8", className)}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
    </div>
  );
}
