import {
  createLoader,
  createParser,
  createSerializer,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
} from "nuqs/server";
import { SHIPMENT_TAB_KEYS } from "@/components/shipments/status-tabs";
import { isDay, isTimeZone } from "@/lib/dashboard/zoned-day";

export const SHIPMENTS_PER_PAGE = 50;

/** A calendar day, YYYY-MM-DD, kept as written (it becomes an instant only with the clerk's time zone). */
const parseAsDay = createParser({ parse: (v) => (isDay(v) ? v : null), serialize: (v: string) => v });
const parseAsTimeZone = createParser({ parse: (v) => (isTimeZone(v) ? v : null), serialize: (v: string) => v });

/**
 * The shipments list's whole state, in the URL (shared links and back/forward work): read on the server with
 * `loadShipmentListParams`, changed in the browser with `useQueryStates(shipmentListParams)`. Defaults stay out of
 * the URL. `tz` is the zone the days `from` and `to` are meant in, written with them, so a shared link means the
 * same hours for everyone.
 */
export const shipmentListParams = {
  status: parseAsStringLiteral(SHIPMENT_TAB_KEYS).withDefault("all"),
  q: parseAsString.withDefault(""),
  carrier: parseAsString.withDefault(""),
  from: parseAsDay,
  to: parseAsDay,
  tz: parseAsTimeZone,
  page: parseAsInteger.withDefault(1),
};

export const loadShipmentListParams = createLoader(shipmentListParams);
export const shipmentListUrl = createSerializer(shipmentListParams);
export type ShipmentListParams = Awaited<ReturnType<typeof loadShipmentListParams>>;
