import type { Customs } from "@/lib/carriers/types";
import { ValidationError } from "@/lib/errors";
import { crossesCustomsBorder, CustomsInput } from "@/lib/schemas/customs";
import { parseInput } from "@/lib/validation";

/**
 * The customs a label is bought with (docs/api.md, "Customs"): required when the parcel crosses a customs border,
 * checked before anything is claimed or a carrier is asked, so a refusal buys nothing and changes nothing.
 * `customs` is what the request or the stored shipment holds; stored ones from before customs were typed are read
 * through the same schema, so a carrier never gets a declaration the API would refuse today.
 */
export function customsForLabel(
  route: { shipper: { country_code: string }; recipient: { country_code: string } },
  customs: Record<string, unknown> | Customs | null,
  field = "customs",
): Customs | null {
  const from = route.shipper.country_code.toUpperCase();
  const to = route.recipient.country_code.toUpperCase();
  if (customs === null) {
    if (!crossesCustomsBorder(from, to)) return null;
    throw new ValidationError(
      `is required to ship from ${from} to ${to}: the parcel crosses a customs border (content type, incoterm and commodities)`,
      field,
    );
  }
  const parsed = parseInput(CustomsInput, customs, field);
  if (!parsed.ok) throw new ValidationError(parsed.problems);
  return parsed.data;
}
