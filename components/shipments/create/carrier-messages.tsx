import { CircleAlert, Info, TriangleAlert } from "lucide-react";
import { cn } from "@/components/ui/cn";
import { messagesByCarrier } from "@/lib/client/create-label/rates-view";
import type { Message } from "@/lib/schemas/message";

const LEVEL = {
  error: { icon: CircleAlert, className: "text-destructive", word: "Error" },
  warning: { icon: TriangleAlert, className: "text-warning", word: "Warning" },
  info: { icon: Info, className: "text-info", word: "Note" },
} as const;

/** Carriers' errors and warnings, per connection, each with its level in words and an icon (not colour alone). */
export function CarrierMessages({ messages, className }: { messages: readonly Message[]; className?: string }) {
  const groups = messagesByCarrier(messages);
  if (groups.length === 0) return null;
  return (
    <div className={cn("grid gap-3", className)}>
      {groups.map((group) => (
        <section key={`${group.carrierName}:${group.carrierId}`} className="grid gap-1.5">
          <h3 className="text-sm font-medium">
            {group.carrierName}
            {group.carrierId !== group.carrierName && (
              <span className="font-normal text-muted-foreground"> · {group.carrierId}</span>
            )}
          </h3>
          <ul className="grid gap-1.5">
            {group.messages.map((m, i) => {
              const level = LEVEL[m.level];
              return (
                <li key={i} className="flex gap-2 text-sm">
                  <level.icon aria-hidden className={cn("mt-0.5 size-4 shrink-0", level.className)} />
                  <span>
                    <span className="sr-only">{level.word}: </span>
                    {m.message} <code className="font-mono text-xs text-muted-foreground">{m.code}</code>
                  </span>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
