import { randomHex128 } from "@/lib/random";

/** docs/api.md, "Conventions": prefix + 32 lowercase hex chars of randomness; opaque and never sequential. */
const ID_PREFIXES = {
  org: "org_",
  key: "key_",
  connection: "car_",
  shipment: "shp_",
  rate: "rat_",
  address: "adr_",
  parcel: "pcl_",
  document: "doc_",
  tracker: "trk_",
  event: "evt_",
  webhook: "whk_",
  invitation: "inv_",
  user: "usr_",
  session: "ses_",
  account: "acc_",
  verification: "ver_",
  audit: "aud_",
  batch: "bat_",
  saved_address: "adb_",
  parcel_preset: "pps_",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

export function newId(kind: IdKind): string {
  return ID_PREFIXES[kind] + randomHex128();
}
