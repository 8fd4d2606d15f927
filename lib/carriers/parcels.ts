import { CarrierError, type Parcel } from "@/lib/carriers/types";

/**
 * The one parcel of a shipment, for carriers that price and label one parcel per call (USPS, Canada Post): a
 * shipment of several is refused on `parcels` with the carrier's own sentence on what to do instead.
 */
export function oneParcel(parcels: Parcel[], refusal: string): Parcel {
  if (parcels.length !== 1) throw new CarrierError("not_supported", refusal, { field: "parcels" });
  return parcels[0]!;
}
