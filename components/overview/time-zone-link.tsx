"use client";

import Link from "next/link";
import { overviewUrl } from "@/components/overview/search-params";
import { useBrowserValue } from "@/components/ui/use-browser-value";

/**
 * The server cannot know the viewer's time zone: it counts days in the URL's `tz` (UTC without one). This offers the
 * browser's own zone when it differs; nothing is rendered on the server.
 */
export function TimeZoneLink({ mode, tz }: { mode: "live" | "test" | null; tz: string }) {
  const mine = useBrowserValue(
    () => Intl.DateTimeFormat().resolvedOptions().timeZone,
    () => null,
  );
  if (!mine || mine === tz) return null;
  return (
    <Link className="text-primary underline underline-offset-2" href={overviewUrl("/", { mode, tz: mine })}>
      Count days in {mine}
    </Link>
  );
}
