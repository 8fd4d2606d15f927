import { CircleAlert, Info, TriangleAlert, type LucideIcon } from "lucide-react";
import { cn } from "@/components/ui/cn";
import type { Message } from "@/lib/schemas/message";

const LEVELS: Record<Message["level"], { icon: LucideIcon; className: string; word: string }> = {
  error: {
    icon: CircleAlert,
    className: "border-destructive-border bg-destructive-muted text-destructive",
    word: "Error",
  },
  warning: { icon: TriangleAlert, className: "border-warning-border bg-warning-muted text-warning", word: "Warning" },
  info: { icon: Info, className: "border-info-border bg-info-muted text-info", word: "Note" },
};

/** Carriers' messages (errors, warnings, notes) as the carrier worded them, with its code; server or client. */
export function CarrierMessages({ messages, className }: { messages: Message[]; className?: string }) {
  if (messages.length === 0) return null;
  return (
    <ul className={cn("grid gap-2", className)}>
      {messages.map((m, i) => {
        const { icon: Icon, className: tone, word } = LEVELS[m.level];
        return (
          <li key={`${m.code}-${i}`} className={cn("flex gap-2 rounded-md border px-3 py-2 text-sm", tone)}>
            <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
            <p className="min-w-0">
              <span className="font-medium">
                {word} from {m.carrier_name}:
              </span>{" "}
              {m.message} <span className="font-mono text-xs break-all">({m.code})</span>
            </p>
          </li>
        );
      })}
    </ul>
  );
}
