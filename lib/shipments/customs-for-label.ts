import type { Customs } from "@/lib/carriers/types";
import { CustomsRequiredError, ValidationError } from "@/lib/errors";
import { crossesCustomsBorder } from "@/lib/carriers/customs-territory";
import { CustomsInput } from "@/lib/schemas/customs";
import { parseInput } from "@/lib/validation";

type Route = { shipper: { country_code: string }; recipient: { country_code: string } };

/**
 * The customs a label is bought with (docs/api.md, "Customs"): required when the parcel crosses a customs border,
 * checked before anything is claimed or a carrier is asked, so a refusal buys nothing and changes nothing.
 */
export function customsForLabel(route: Route, customs: Customs | null): Customs | null {
  if (customs) return customs;
  const from = route.shipper.country_code.toUpperCase();
  const to = route.recipient.country_code.toUpperCase();
  if (!crossesCustomsBorder(from, to)) return null;
  throw new CustomsRequiredError([
    {
      field: "customs",
      message: `is required to ship from ${from} to ${to}: the parcel crosses a customs border (send content_type, incoterm and commodities)`,
    },
  ]);
}

/**
 * Customs that did not come through a request schema: a 2021.7 client's `options.customs` (a bad field is the
 * request's fault: 400), or a shipment stored before customs were typed (the shipment cannot be declared as it
 * stands: 422 customs_required, by field, so the purchase can send corrected customs).
 */
export function readCustoms(value: Record<string, unknown>, field: string, from: "request" | "stored"): Customs {
  const parsed = parseInput(CustomsInput, value, field);
  if (parsed.ok) return parsed.data;
  throw from === "request" ? new ValidationError(parsed.problems) : new CustomsRequiredError(parsed.problems);
}
