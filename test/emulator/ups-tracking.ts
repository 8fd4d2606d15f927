import { createHash } from "node:crypto";

/**
 * UPS tracking numbers and the journeys the emulator tells about them.
 *
 * A UPS number is `1Z` + the shipper's 6-character account + a 2-character service code + a 7-digit package serial
 * + a check digit: over the 15 characters after `1Z`, letters count as (ASCII − 3) mod 10 (A=2, B=3, …), characters at
 * odd 0-based positions count double, and the check digit is (10 − sum mod 10) mod 10. `1Z999AA10123456784`, UPS's
 * published example, passes.
 */

export function upsCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body.charCodeAt(i);
    const value = ch >= 48 && ch <= 57 ? ch - 48 : (ch - 3) % 10;
    sum += i % 2 === 1 ? value * 2 : value;
  }
  return (10 - (sum % 10)) % 10;
}

export function makeUpsTrackingNumber(account: string, service: string, serial: number): string {
  const body = `${account.toUpperCase()}${service.padStart(2, "0").slice(0, 2)}${String(serial % 10_000_000).padStart(7, "0")}`;
  return `1Z${body}${upsCheckDigit(body)}`;
}

export function isValidUpsTrackingNumber(n: string): boolean {
  return /^1Z[0-9A-Z]{15}\d$/.test(n) && upsCheckDigit(n.slice(2, 17)) === Number(n[17]);
}

export interface Place {
  city: string;
  stateProvince: string;
  postalCode: string;
  countryCode: string;
}

export interface Sale {
  shipmentId: string;
  trackingNumbers: string[];
  soldAt: number;
  voidedAt: number | null;
  service: string;
  serviceName: string;
  transitDays: number;
  origin: Place;
  destination: Place;
  referenceNumbers: string[];
}

interface Scan {
  afterHours: number;
  type: string;
  code: string;
  statusCode: string;
  description: string;
  place: Place;
}

const HUBS: Place[] = [
  { city: "Louisville", stateProvince: "KY", postalCode: "40209", countryCode: "US" },
  { city: "Hodgkins", stateProvince: "IL", postalCode: "60525", countryCode: "US" },
  { city: "Dallas", stateProvince: "TX", postalCode: "75261", countryCode: "US" },
  { city: "Ontario", stateProvince: "CA", postalCode: "91761", countryCode: "US" },
  { city: "Philadelphia", stateProvince: "PA", postalCode: "19153", countryCode: "US" },
];
const INTERNATIONAL_HUBS: Place[] = [
  { city: "Koeln", stateProvince: "", postalCode: "51147", countryCode: "DE" },
  { city: "Louisville", stateProvince: "KY", postalCode: "40209", countryCode: "US" },
  { city: "Hamilton", stateProvince: "ON", postalCode: "L0R1W0", countryCode: "CA" },
];

/** UTC offsets the emulator reports local times in, by country (one zone per country is enough for a test). */
const OFFSETS = new Map([
  ["US", -5],
  ["CA", -5],
  ["MX", -6],
  ["GB", 0],
  ["IE", 0],
  ["PT", 0],
]);

const offsetOf = (country: string) => OFFSETS.get(country) ?? 1;

function pick<T>(list: T[], seed: string): T {
  return list[createHash("sha256").update(seed).digest()[0]! % list.length]!;
}

const HOUR = 3_600_000;

/**
 * The journeys a parcel can make besides the plain one, chosen by the test through the shipment's own reference
 * (UPS keeps it with the sale, so it travels the real wire): a reference number `JOURNEY-ATTEMPT`, `JOURNEY-DELAY`,
 * `JOURNEY-RETURN` or `JOURNEY-LOST` (any case). Their activities carry UPS's documented codes: `statusCode` from
 * UPS's Status/Description Codes (lib/carriers/ups/status-codes.ts) and, on exceptions (type X), `code` from UPS's
 * Package Exceptions list (the same "API Codes" appendix, karrioapi/karrio @ 597cf2a,
 * modules/connectors/ups/vendors/Tracking-movement-scans.html, its first table).
 */
const UPS_JOURNEYS = ["ATTEMPT", "DELAY", "RETURN", "LOST"] as const;
type Journey = (typeof UPS_JOURNEYS)[number] | "PLAIN";

function journeyOf(sale: Sale): Journey {
  for (const ref of sale.referenceNumbers) {
    const name = /^JOURNEY-(\w+)$/i.exec(ref.trim())?.[1]?.toUpperCase();
    if ((UPS_JOURNEYS as readonly string[]).includes(name ?? "")) return name as Journey;
  }
  return "PLAIN";
}

// Package Exceptions 48: "The receiver was not available for delivery. We'll make a second attempt the next
// business day."; 49: "… at the time of the final delivery attempt."; 8: "Due to operating conditions, your package
// may be delayed."; 1F: "Per government agency instruction, UPS has destroyed the package."
const notHome = (afterHours: number, statusCode: string, place: Place): Scan => ({
  afterHours,
  type: "X",
  code: "48",
  statusCode,
  description: "The receiver was not available for delivery. We'll make a second attempt the next business day.",
  place,
});

/** The scans of a sale's journey, with their time after the sale: the same for the same number. */
function scans(sale: Sale, trackingNumber: string): Scan[] {
  const total = Math.max(1, sale.transitDays) * 24;
  const international = sale.origin.countryCode !== sale.destination.countryCode;
  const hub = pick(international ? INTERNATIONAL_HUBS : HUBS, trackingNumber);
  const journey = journeyOf(sale);
  // A delayed parcel reaches its destination a day late; everything after the hub moves with it.
  const late = journey === "DELAY" ? 24 : 0;
  const list: Scan[] = [
    {
      afterHours: 0,
      type: "M",
      code: "MP",
      statusCode: "003",
      description: "Shipper created a label, UPS has not received the package yet.",
      place: sale.origin,
    },
    { afterHours: 3, type: "I", code: "PU", statusCode: "038", description: "Pickup Scan", place: sale.origin },
    {
      afterHours: 6,
      type: "I",
      code: "DP",
      statusCode: "005",
      description: "Departed from Facility",
      place: sale.origin,
    },
    {
      afterHours: total * 0.5,
      type: "I",
      code: "AR",
      statusCode: "005",
      description: "Arrived at Facility",
      place: hub,
    },
  ];
  if (journey === "LOST") {
    list.push({
      afterHours: total * 0.5 + 6,
      type: "X",
      code: "1F",
      statusCode: "149",
      description: "Per government agency instruction, UPS has destroyed the package.",
      place: hub,
    });
    return list;
  }
  if (journey === "DELAY") {
    list.push({
      afterHours: total * 0.5 + 1,
      type: "X",
      code: "8",
      statusCode: "046",
      description: "Due to operating conditions, your package may be delayed.",
      place: hub,
    });
  }
  list.push({
    afterHours: total * 0.5 + 3 + late,
    type: "I",
    code: "DP",
    statusCode: "005",
    description: "Departed from Facility",
    place: hub,
  });
  if (international) {
    list.push({
      afterHours: total * 0.7 + late,
      type: "I",
      code: "IP",
      statusCode: "005",
      description: "Import Scan",
      place: sale.destination,
    });
  }
  const outForDelivery = (afterHours: number): Scan => ({
    afterHours,
    type: "I",
    code: "OT",
    statusCode: "021",
    description: "Out For Delivery Today",
    place: sale.destination,
  });
  list.push(
    {
      afterHours: total - 7 + late,
      type: "I",
      code: "AR",
      statusCode: "005",
      description: "Arrived at Facility",
      place: sale.destination,
    },
    outForDelivery(total - 4 + late),
  );
  if (journey === "ATTEMPT") {
    // Nobody home the first time; delivered on the second attempt the next day.
    list.push(notHome(total, "022", sale.destination), outForDelivery(total + 20));
    list.push({ ...delivered(sale), afterHours: total + 24 });
    return list;
  }
  if (journey === "RETURN") {
    // Three attempts (022, 023, then the final one, 024), then UPS sends the parcel back.
    list.push(
      notHome(total, "022", sale.destination),
      outForDelivery(total + 20),
      notHome(total + 24, "023", sale.destination),
      outForDelivery(total + 44),
      {
        afterHours: total + 48,
        type: "X",
        code: "49",
        statusCode: "024",
        description: "The receiver was not available at the time of the final delivery attempt.",
        place: sale.destination,
      },
      {
        afterHours: total + 60,
        type: "I",
        code: "DP",
        statusCode: "035",
        description: "Returning to Sender",
        place: sale.destination,
      },
    );
    return list;
  }
  list.push({ ...delivered(sale), afterHours: total + late });
  return list;
}

function delivered(sale: Sale): Scan {
  return { afterHours: 0, type: "D", code: "FS", statusCode: "011", description: "DELIVERED", place: sale.destination };
}

const ymd = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, "");
const hms = (d: Date) => d.toISOString().slice(11, 19).replace(/:/g, "");

function activity(scan: Scan, at: number) {
  const offsetHours = offsetOf(scan.place.countryCode);
  const local = new Date(at + offsetHours * HOUR);
  const gmt = new Date(at);
  const sign = offsetHours < 0 ? "-" : "+";
  return {
    location: { address: { ...scan.place, country: scan.place.countryCode } },
    status: {
      type: scan.type,
      description: scan.description,
      code: scan.code,
      statusCode: scan.statusCode,
    },
    date: ymd(local),
    time: hms(local),
    gmtDate: ymd(gmt),
    // UPS writes GMT times without their leading zero ("74700"), as its spec's example does.
    gmtTime: String(Number(hms(gmt))),
    gmtOffset: `${sign}${String(Math.abs(offsetHours)).padStart(2, "0")}:00`,
  };
}

/** The `package` of a track answer for a number the emulator sold, as it stands at `now`. */
export function trackedPackage(sale: Sale, trackingNumber: string, now: number) {
  // A voided label never reaches UPS: its journey stops where the void found it.
  const until = sale.voidedAt !== null ? Math.min(now, sale.voidedAt) : now;
  const happened = scans(sale, trackingNumber)
    .map((scan) => ({ scan, at: sale.soldAt + scan.afterHours * HOUR }))
    .filter(({ at }) => at <= until);
  const activities = happened.map(({ scan, at }) => activity(scan, at));
  if (sale.voidedAt !== null && sale.voidedAt <= now) {
    activities.push(
      activity(
        {
          afterHours: 0,
          type: "MV",
          code: "MV",
          statusCode: "007",
          description: "Voided Information Received",
          place: sale.origin,
        },
        sale.voidedAt,
      ),
    );
  }
  activities.reverse(); // newest first, as UPS answers
  const current = activities[0]!.status;
  const delivered = current.type === "D";
  const due = new Date(sale.soldAt + Math.max(1, sale.transitDays) * 24 * HOUR);
  return {
    trackingNumber,
    currentStatus: { ...current, simplifiedTextDescription: delivered ? "Delivered" : "On the Way" },
    activity: activities,
    // Once UPS reports a delay it also gives the rescheduled date (RDD) beside the scheduled one.
    deliveryDate: delivered
      ? [{ type: "DEL", date: ymd(new Date(happened.at(-1)!.at)) }]
      : [
          { type: "SDD", date: ymd(due) },
          ...(happened.some(({ scan }) => scan.statusCode === "046")
            ? [{ type: "RDD", date: ymd(new Date(due.getTime() + 24 * HOUR)) }]
            : []),
        ],
    ...(delivered ? { deliveryInformation: { location: "Front Door", receivedBy: "" } } : {}),
    packageAddress: [
      { type: "ORIGIN", address: sale.origin },
      { type: "DESTINATION", address: sale.destination },
    ],
    referenceNumber: sale.referenceNumbers.map((number) => ({ type: "SHIPMENT", number })),
    service: { code: sale.service, description: sale.serviceName },
    packageCount: sale.trackingNumbers.length,
  };
}
