import type { EmulatorRequest, EmulatorResponse } from "./server";

/**
 * MyDHL `GET /address-validate` in the emulator: the places DHL Express delivers to, by country and postal code. A
 * postal code it knows answers its city (or cities); one it does not answers no address and a warning (the spec
 * defines no 404 for this operation).
 */
const PLACES: Record<string, { city: string; area: string }[]> = {
  "DE|10117": [{ city: "BERLIN", area: "BER" }],
  "GB|SW1A 2AA": [{ city: "LONDON", area: "LON" }],
  "CH|1000": [
    { city: "LAUSANNE", area: "QLS" },
    { city: "LAUSANNE 25", area: "QLS" },
  ],
};

export function dhlAddressValidate(req: EmulatorRequest): EmulatorResponse {
  const country = (req.query.get("countryCode") ?? "").toUpperCase();
  const postal = (req.query.get("postalCode") ?? "").toUpperCase();
  const places = PLACES[`${country}|${postal}`];
  if (!places) return { status: 200, body: { warnings: ["No records found for the given address."], address: [] } };
  return {
    status: 200,
    body: {
      address: places.map((p) => ({
        countryCode: country,
        postalCode: postal,
        cityName: p.city,
        serviceArea: { code: p.area, description: p.city },
      })),
    },
  };
}
