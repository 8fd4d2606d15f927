import type { ServiceDeclaration } from "@/lib/carriers/types";

/**
 * DHL Express's global product codes (the `productCode` of rates and shipments; karrio's DHL Express tables and the
 * spec's samples, where "Y" is "EXPRESS 12:00"), with the names DHL markets them under. A rate answer names each
 * product itself (`productName`), which wins for products this table does not know. `typicalDays` is the usual
 * transit in business days, used only when an answer carries neither transit days nor a delivery date.
 */
interface DhlService extends ServiceDeclaration {
  typicalDays: number;
}

export const DHL_SERVICES: readonly DhlService[] = [
  { code: "N", name: "DHL Express Domestic", scope: "domestic", typicalDays: 1 },
  { code: "P", name: "DHL Express Worldwide", scope: "international", typicalDays: 3 },
  { code: "D", name: "DHL Express Worldwide (documents)", scope: "international", typicalDays: 3 },
  { code: "U", name: "DHL Express Worldwide (EU)", scope: "international", typicalDays: 3 },
  { code: "Y", name: "DHL Express 12:00", scope: "international", typicalDays: 2 },
  { code: "T", name: "DHL Express 12:00 (documents)", scope: "international", typicalDays: 2 },
  { code: "E", name: "DHL Express 9:00", scope: "international", typicalDays: 2 },
  { code: "K", name: "DHL Express 9:00 (documents)", scope: "international", typicalDays: 2 },
  { code: "W", name: "DHL Economy Select", scope: "international", typicalDays: 5 },
  { code: "H", name: "DHL Economy Select (EU)", scope: "international", typicalDays: 5 },
  { code: "X", name: "DHL Express Envelope", scope: "international", typicalDays: 3 },
];

// A Map: product codes come from clients and from DHL's answers; only our own entries may answer for them.
const BY_CODE: ReadonlyMap<string, DhlService> = new Map(DHL_SERVICES.map((s) => [s.code, s]));

export function dhlService(code: string): DhlService | undefined {
  return BY_CODE.get(code);
}
