import { createLoader, createParser, createSerializer, parseAsStringLiteral } from "nuqs/server";
import { isTimeZone } from "@/lib/dashboard/zoned-day";

const parseAsTimeZone = createParser({ parse: (v) => (isTimeZone(v) ? v : null), serialize: (v: string) => v });

/**
 * The overview's state, in the URL: `mode` (live or test labels: test labels are not real spend; without it, live
 * when there are live labels in the window, else test) and `tz`, the zone its days are counted in (UTC without it).
 */
const overviewParams = {
  mode: parseAsStringLiteral(["live", "test"] as const),
  tz: parseAsTimeZone,
};

export const loadOverviewParams = createLoader(overviewParams);
export const overviewUrl = createSerializer(overviewParams);
