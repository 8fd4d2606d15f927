import type { TrackerStatus, TrackingEvent, TrackingResult } from "@/lib/carriers/types";
import { localDateTime } from "@/lib/carriers/ship-date";
import { cityPlace, gateway, sortHub, type LocatedPlace } from "@/lib/carriers/sandbox/locations";
import { scenarioName } from "@/lib/carriers/sandbox/scenarios";
import type { TrackingNumberParts } from "@/lib/carriers/sandbox/tracking-number";

/**
 * Tracking events computed, not stored: a parcel's journey is a fixed schedule of steps in *simulated* minutes
 * after purchase, chosen by the scenario digit; a step has happened once enough time has passed.
 *
 * Pace: `pace` simulated minutes pass per real minute, so a step scheduled `at` simulated minutes after purchase
 * happens at the real instant `purchasedAt + at / pace` minutes — and that instant is its `occurred_at`. Event
 * times are therefore real past instants, never in the future. With pace 1 a domestic parcel takes ~55 hours;
 * with the default 360 it is delivered ~9 minutes after purchase (international ~83 h / ~14 min).
 *
 * The same number at the same instant always yields the same events (nothing random, nothing stored).
 */

type Where = "origin" | "hub" | "originGateway" | "destinationGateway" | "destination";

export interface JourneyStep {
  /** Simulated minutes after purchase. */
  at: number;
  code: string;
  status: TrackerStatus;
  description: string;
  where: Where;
}

const H = 60;

const LABEL_CREATED: JourneyStep = {
  at: 0,
  code: "SBX-LC",
  status: "pending",
  description: "Label created, awaiting item",
  where: "origin",
};
const FIRST_MILE: JourneyStep[] = [
  LABEL_CREATED,
  { at: 3 * H, code: "SBX-PU", status: "picked_up", description: "Picked up, accepted at origin", where: "origin" },
  { at: 8 * H, code: "SBX-DO", status: "in_transit", description: "Departed origin facility", where: "origin" },
];
const DELIVERED_TEXT = ["Delivered, front door", "Delivered, handed to resident", "Delivered, left at reception"];

function lastMile(arrive: number, serial: number): JourneyStep[] {
  return [
    {
      at: arrive,
      code: "SBX-AD",
      status: "in_transit",
      description: "Arrived at destination facility",
      where: "destination",
    },
    {
      at: arrive + 6 * H,
      code: "SBX-OD",
      status: "out_for_delivery",
      description: "Out for delivery",
      where: "destination",
    },
    {
      at: arrive + 11 * H,
      code: "SBX-DL",
      status: "delivered",
      description: DELIVERED_TEXT[serial % 3] ?? "Delivered",
      where: "destination",
    },
  ];
}

/** The normal journey; index 3 is always the first stop after the origin (sort hub or export gateway). */
function normalJourney(international: boolean, serial = 0): JourneyStep[] {
  if (!international) {
    return [
      ...FIRST_MILE,
      { at: 20 * H, code: "SBX-AH", status: "in_transit", description: "Arrived at sort facility", where: "hub" },
      { at: 26 * H, code: "SBX-DH", status: "in_transit", description: "Departed sort facility", where: "hub" },
      ...lastMile(44 * H, serial),
    ];
  }
  return [
    ...FIRST_MILE,
    {
      at: 20 * H,
      code: "SBX-AG",
      status: "in_transit",
      description: "Arrived at international gateway",
      where: "originGateway",
    },
    {
      at: 28 * H,
      code: "SBX-EX",
      status: "in_transit",
      description: "Export cleared, departed international gateway",
      where: "originGateway",
    },
    {
      at: 48 * H,
      code: "SBX-AI",
      status: "in_transit",
      description: "Arrived in destination country, import clearance in progress",
      where: "destinationGateway",
    },
    { at: 60 * H, code: "SBX-CC", status: "in_transit", description: "Cleared customs", where: "destinationGateway" },
    ...lastMile(72 * H, serial),
  ];
}

/** Every step the scenario will ever reach, in order. */
export function plannedJourney(
  parts: Pick<TrackingNumberParts, "scenario" | "international" | "serial">,
): JourneyStep[] {
  const base = normalJourney(parts.international, parts.serial);
  const throughOutForDelivery = base.slice(0, -1);
  const od = throughOutForDelivery.at(-1)?.at ?? 0;
  switch (parts.scenario) {
    case 1:
      return [LABEL_CREATED];
    case 2:
      return base.slice(0, 4);
    case 3:
      return throughOutForDelivery;
    case 5:
      return [
        ...throughOutForDelivery,
        {
          at: od + 4 * H,
          code: "SBX-NH",
          status: "delivery_failed",
          description: "Delivery attempted, recipient not home. Notice left",
          where: "destination",
        },
        {
          at: od + 24 * H,
          code: "SBX-OD",
          status: "out_for_delivery",
          description: "Out for delivery, second attempt",
          where: "destination",
        },
        {
          at: od + 28 * H,
          code: "SBX-NH",
          status: "delivery_failed",
          description: "Second delivery attempt failed, recipient not home",
          where: "destination",
        },
        {
          at: od + 30 * H,
          code: "SBX-RS",
          status: "return_to_sender",
          description: "Returning to sender after 2 failed delivery attempts",
          where: "destination",
        },
        {
          at: od + 78 * H,
          code: "SBX-RD",
          status: "return_to_sender",
          description: "Returned to sender",
          where: "origin",
        },
      ];
    case 6:
      return [
        ...throughOutForDelivery,
        {
          at: od + 4 * H,
          code: "SBX-NH",
          status: "delivery_failed",
          description: "Delivery attempted, recipient not home",
          where: "destination",
        },
        {
          at: od + 8 * H,
          code: "SBX-HP",
          status: "ready_for_pickup",
          description: "Held at post office, ready for pickup",
          where: "destination",
        },
      ];
    case 7: {
      if (parts.international) {
        const arrived = base.findIndex((s) => s.code === "SBX-AI");
        const step = base[arrived]!;
        return [
          ...base.slice(0, arrived + 1),
          {
            at: step.at + 6 * H,
            code: "SBX-CH",
            status: "on_hold",
            description: "Held by customs: documentation or duty payment required",
            where: "destinationGateway",
          },
        ];
      }
      const arrived = base.findIndex((s) => s.code === "SBX-AD");
      const step = base[arrived]!;
      return [
        ...base.slice(0, arrived + 1),
        {
          at: step.at + 4 * H,
          code: "SBX-HA",
          status: "on_hold",
          description: "On hold at destination facility: address information required",
          where: "destination",
        },
      ];
    }
    case 8: {
      const hub = base[3]!;
      return [
        ...base.slice(0, 4),
        {
          at: hub.at + 2 * H,
          code: "SBX-WX",
          status: "delivery_delayed",
          description: "Delayed by severe weather, shipment will move as conditions allow",
          where: hub.where,
        },
        ...base.slice(4).map((s) => ({ ...s, at: s.at + 24 * H })),
      ];
    }
    default:
      return base;
  }
}

function resolvePlaces(parts: TrackingNumberParts): Record<Where, LocatedPlace> {
  const origin = cityPlace(parts.originCountry, parts.originCity);
  const destination = cityPlace(parts.destinationCountry, parts.destinationCity);
  const originGateway = gateway(parts.originCountry);
  return {
    origin,
    destination,
    hub: parts.international ? originGateway : sortHub(parts.originCountry, parts.originCity, parts.destinationCity),
    originGateway,
    destinationGateway: gateway(parts.destinationCountry),
  };
}

/** The real instant a step happens at the given pace. */
function stepInstant(parts: Pick<TrackingNumberParts, "purchasedAt">, step: JourneyStep, pace: number): Date {
  return new Date(parts.purchasedAt.getTime() + Math.round((step.at * 60_000) / pace));
}

/** Steps that have happened by `now` (label creation always has), oldest first. */
function stepsSoFar(parts: TrackingNumberParts, now: Date, pace: number): JourneyStep[] {
  return plannedJourney(parts).filter((s, i) => i === 0 || stepInstant(parts, s, pace).getTime() <= now.getTime());
}

export function statusAt(parts: TrackingNumberParts, now: Date, pace: number): TrackerStatus {
  return stepsSoFar(parts, now, pace).at(-1)?.status ?? "pending";
}

const EXCEPTIONS = new Set<TrackerStatus>(["delivery_failed", "ready_for_pickup", "return_to_sender", "on_hold"]);

export function trackingAt(
  trackingNumber: string,
  parts: TrackingNumberParts,
  now: Date,
  pace: number,
): TrackingResult {
  const places = resolvePlaces(parts);
  const happened = stepsSoFar(parts, now, pace);
  const events: TrackingEvent[] = happened
    .map((step) => {
      const place = places[step.where];
      const instant = stepInstant(parts, step, pace);
      const { date, time } = localDateTime(instant, place.place.tz);
      return {
        date,
        time,
        description: step.description,
        location: place.label,
        code: step.code,
        status: step.status,
        occurred_at: instant.toISOString(),
      };
    })
    .reverse();
  const status = happened.at(-1)?.status ?? "pending";

  // The promise shown to the customer: the actual delivery once delivered, nothing once something went wrong,
  // else the planned delivery (moved by a weather delay only once the delay has been reported).
  let estimated: string | null = null;
  if (!happened.some((s) => EXCEPTIONS.has(s.status))) {
    const delayed = happened.some((s) => s.status === "delivery_delayed");
    const plan = delayed ? plannedJourney(parts) : normalJourney(parts.international, parts.serial);
    const delivery = plan.find((s) => s.status === "delivered");
    if (delivery) estimated = localDateTime(stepInstant(parts, delivery, pace), places.destination.place.tz).date;
  }

  return {
    tracking_number: trackingNumber,
    status,
    events,
    estimated_delivery: estimated,
    meta: {
      scenario: scenarioName(parts.scenario),
      international: parts.international,
      origin: places.origin.label,
      destination: places.destination.label,
      purchased_at: parts.purchasedAt.toISOString(),
    },
  };
}
