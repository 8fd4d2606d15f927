import { cn } from "@/components/ui/cn";
import { controlClasses } from "@/components/ui/input";

export function Textarea({ className, rows = 3, ...props }: React.ComponentProps<"textarea">) {
  return <textarea rows={rows} data-slot="textarea" className={cn(controlClasses, "py-2", className)} {...props} />;
}
