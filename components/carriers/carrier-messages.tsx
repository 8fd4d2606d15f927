import { CircleAlert, Info, TriangleAlert, type LucideIcon } from "lucide-react";
import { cn } from "@/components/ui/cn";
import { messagesByCarrier } from "@/lib/client/create-label/rates-view";
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

/**
 * Carriers' messages (errors, warnings, notes) as the carrier worded them, with their code: the one way the dashboard
 * shows them, after a purchase, a cancel, a quote or a connection test; server or client. Each says its level in
 * words and with an icon, not colour alone, errors first. Messages of more than one connection (a quote across
 * several) are grouped under each connection's name.
 */
export function CarrierMessages({ messages, className }: { messages: readonly Message[]; className?: string }) {
  const groups = messagesByCarrier(messages);
  if (groups.length === 0) return null;
  if (groups.length === 1) return <MessageList messages={groups[0]!.messages} named className={className} />;
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
          <MessageList messages={group.messages} />
        </section>
      ))}
    </div>
  );
}

/** `named`: each message says which carrier it is from (no heading above says so). */
function MessageList({
  messages,
  named = false,
  className,
}: {
  messages: readonly Message[];
  named?: boolean;
  className?: string;
}) {
  return (
    <ul className={cn("grid gap-2", className)}>
      {messages.map((m, i) => {
        const { icon: Icon, className: tone, word } = LEVELS[m.level];
        return (
          <li key={`${m.code}-${i}`} className={cn("flex gap-2 rounded-md border px-3 py-2 text-sm", tone)}>
            <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
            <p className="min-w-0">
              <span className="font-medium">{named ? `${word} from ${m.carrier_name}:` : `${word}:`}</span> {m.message}{" "}
              <span className="font-mono text-xs break-all">({m.code})</span>
            </p>
          </li>
        );
      })}
    </ul>
  );
}
