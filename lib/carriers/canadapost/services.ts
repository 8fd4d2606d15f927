import type { ServiceDeclaration } from "@/lib/carriers/types";

/**
 * Canada Post's parcel services by code (docs/canadapost.md, "Services"; karrio's `ServiceType`, the codes Canada
 * Post's Discover Services answers). Codes starting `DOM.` stay in Canada, `USA.` go to the United States, `INT.`
 * elsewhere. Canada Post names each service in its rate answer too; the quote keeps Canada Post's name.
 */
export const CANADAPOST_SERVICES: readonly ServiceDeclaration[] = [
  { code: "DOM.RP", name: "Regular Parcel", scope: "domestic" },
  { code: "DOM.EP", name: "Expedited Parcel", scope: "domestic" },
  { code: "DOM.XP", name: "Xpresspost", scope: "domestic" },
  { code: "DOM.XP.CERT", name: "Xpresspost Certified", scope: "domestic" },
  { code: "DOM.PC", name: "Priority", scope: "domestic" },
  { code: "DOM.LIB", name: "Library Materials", scope: "domestic" },
  { code: "USA.EP", name: "Expedited Parcel USA", scope: "international" },
  { code: "USA.PW.ENV", name: "Priority Worldwide envelope USA", scope: "international" },
  { code: "USA.PW.PAK", name: "Priority Worldwide pak USA", scope: "international" },
  { code: "USA.PW.PARCEL", name: "Priority Worldwide parcel USA", scope: "international" },
  { code: "USA.SP.AIR", name: "Small Packet USA Air", scope: "international" },
  { code: "USA.TP", name: "Tracked Packet - USA", scope: "international" },
  { code: "USA.TP.LVM", name: "Tracked Packet - USA (LVM)", scope: "international" },
  { code: "USA.XP", name: "Xpresspost USA", scope: "international" },
  { code: "INT.XP", name: "Xpresspost International", scope: "international" },
  { code: "INT.IP.AIR", name: "International Parcel Air", scope: "international" },
  { code: "INT.IP.SURF", name: "International Parcel Surface", scope: "international" },
  { code: "INT.PW.ENV", name: "Priority Worldwide envelope INT'L", scope: "international" },
  { code: "INT.PW.PAK", name: "Priority Worldwide pak INT'L", scope: "international" },
  { code: "INT.PW.PARCEL", name: "Priority Worldwide parcel INT'L", scope: "international" },
  { code: "INT.SP.AIR", name: "Small Packet International Air", scope: "international" },
  { code: "INT.SP.SURF", name: "Small Packet International Surface", scope: "international" },
  { code: "INT.TP", name: "Tracked Packet - International", scope: "international" },
];

const BY_CODE = new Map(CANADAPOST_SERVICES.map((s) => [s.code, s]));

export function canadapostService(code: string): ServiceDeclaration | undefined {
  return BY_CODE.get(code);
}
