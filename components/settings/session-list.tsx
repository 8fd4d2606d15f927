import { Badge } from "@/components/ui/badge";
import type { SessionSummary } from "@/lib/auth/sessions";
import { SignOutOthers } from "./sign-out-others";
import { LocalTime } from "@/components/ui/local-time";

/** A browser's name from its user agent, coarse on purpose (enough to recognise one's own devices). */
function browserOf(userAgent: string | null): string {
  if (!userAgent) return "Unknown browser";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Chrome\//.test(userAgent)
      ? "Chrome"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : "Browser";
  const os = /Windows/.test(userAgent)
    ? "Windows"
    : /Mac OS X/.test(userAgent)
      ? "macOS"
      : /Android/.test(userAgent)
        ? "Android"
        : /Linux/.test(userAgent)
          ? "Linux"
          : /iPhone|iPad/.test(userAgent)
            ? "iOS"
            : "";
  return os ? `${browser} on ${os}` : browser;
}

export function SessionList({ sessions }: { sessions: SessionSummary[] }) {
  return (
    <div className="grid gap-4">
      <ul className="divide-y rounded-md border">
        {sessions.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
            <span className="font-medium">
              {browserOf(s.userAgent)} {s.current && <Badge tone="info">This browser</Badge>}
            </span>
            <span className="text-muted-foreground">
              signed in <LocalTime timestamp={s.createdAt} /> · expires <LocalTime timestamp={s.expiresAt} />
            </span>
          </li>
        ))}
      </ul>
      <div>
        <SignOutOthers count={sessions.filter((s) => !s.current).length} />
      </div>
    </div>
  );
}
