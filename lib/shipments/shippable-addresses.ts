import { AddressIncompleteError } from "@/lib/errors";
import { ShippableAddress } from "@/lib/schemas/address";
import { parseInput } from "@/lib/validation";
import { carrierAddress, type AddressRow } from "./rows";

/**
 * docs/api.md, "Managed mode: shipments": a shipment is rated with as little as a country and a postal code, but
 * its label is bought for the full address. Checked before the shipment is claimed or a carrier is asked, so a
 * refusal changes nothing; the fields are named as the shipment answers them (`shipper.address_line1`).
 */
export function assertShippableAddresses(parts: { shipper: AddressRow; recipient: AddressRow }): void {
  const problems = (["shipper", "recipient"] as const).flatMap((side) => {
    const checked = parseInput(ShippableAddress, carrierAddress(parts[side]), side);
    return checked.ok ? [] : checked.problems;
  });
  if (problems.length > 0) throw new AddressIncompleteError(problems);
}
