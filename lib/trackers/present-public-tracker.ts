import type { TrackerStatus } from "@/lib/carriers/types";
import type { StoredTracker } from "@/lib/schemas/tracker";

/** What anyone with a tracker's share link sees: no names, streets, emails, phones, prices, references or ids. */
export interface PublicTracker {
  carrier_name: string;
  tracking_number: string;
  status: TrackerStatus;
  delivered: boolean;
  estimated_delivery: string | null;
  test_mode: boolean;
  events: PublicTrackingEvent[];
}

interface PublicTrackingEvent {
  date: string;
  time: string | null;
  description: string;
  /** City, state and country at most. */
  location: string;
  status: TrackerStatus;
}

// A part of a place with a digit is a street number, a unit, a postal code (US, UK, CA alike) or a PO box.
const HAS_DIGIT = /\d/;
const EMAIL = /[^\s@,;:]+@[^\s@,;:]+\.[^\s@,;:]+/g;
// Digits with the separators phone numbers are written with. 7 to 15 digits (E.164's most) make a phone number,
// unless the run is a date (2024-03-05); longer runs are tracking or account numbers, which name no one.
const DIGIT_RUN = /\+?\(?\d[\d\s().-]{5,}\d/g;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isPhone = (run: string) => {
  const digits = run.match(/\d/g)?.length ?? 0;
  return !DATE.test(run) && digits >= 7 && digits <= 15;
};

/**
 * A carrier's place, cut to city, state and country: the parts that carry a digit go (street numbers, postal codes)
 * and of the rest only the last three stay (a street name without a number comes first when a carrier sends one).
 */
export function publicPlace(location: string): string {
  const parts = location
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p && !HAS_DIGIT.test(p) && !p.includes("@"));
  return parts.slice(-3).join(", ");
}

/** A carrier's event text without the email addresses or phone numbers it may quote. */
export function publicText(text: string): string {
  return text.replace(EMAIL, "[hidden]").replace(DIGIT_RUN, (run) => (isPhone(run.trim()) ? "[hidden]" : run));
}

/** The public view of a stored tracker: pure, the one place that view is built. */
export function presentPublicTracker(t: StoredTracker): PublicTracker {
  return {
    carrier_name: t.carrier_name,
    tracking_number: t.tracking_number,
    status: t.status,
    delivered: t.delivered,
    estimated_delivery: t.estimated_delivery,
    test_mode: t.test_mode,
    events: t.events.map((e) => ({
      date: e.date,
      time: e.time,
      description: publicText(e.description),
      location: publicPlace(e.location),
      status: e.status,
    })),
  };
}
