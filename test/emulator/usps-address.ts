import type { EmulatorRequest, EmulatorResponse } from "./server";

/**
 * USPS Addresses v3 in the emulator (addresses.yaml, `GET /addresses/v3/address`): a small directory answering as
 * USPS does. A known address comes back standardized with its ZIP+4, DPV "Y" and the business flag; a misspelled
 * street comes back corrected; a building whose one suite USPS knows comes back with the suite added; a high-rise
 * without its suite comes back DPV "D" (a unit is missing), with its suite "Y" and with a suite it does not have "S"
 * (the unit is not confirmed); a number inside a known street's range that is no delivery point comes back DPV "N";
 * a street that runs both ways is a 404 "more than one address"; anything else is a 404 "no match".
 */
interface Entry {
  street: string;
  secondary?: string;
  city: string;
  state: string;
  zip: string;
  plus4: string;
  business: "Y" | "N";
  dpv: "Y" | "D" | "S" | "N";
  /** A building whose deliveries need a unit: the one that confirms it (DPV Y); any other sent is "S". */
  suite?: string;
}

const austinCapitol: Entry = {
  street: "1100 CONGRESS AVE",
  city: "AUSTIN",
  state: "TX",
  zip: "78701",
  plus4: "2428",
  business: "Y",
  dpv: "Y",
};
const DIRECTORY: Record<string, Entry | "multiple"> = {
  "1100 CONGRESS AVE|78701": austinCapitol,
  // Corrected: the street as USPS spells it.
  "1100 CONGRES AVE|78701": austinCapitol,
  "4 PRIVET DR|94105": {
    street: "4 PRIVET DR",
    city: "SAN FRANCISCO",
    state: "CA",
    zip: "94105",
    plus4: "1804",
    business: "N",
    dpv: "Y",
  },
  "500 W 2ND ST|78701": {
    street: "500 W 2ND ST",
    city: "AUSTIN",
    state: "TX",
    zip: "78701",
    plus4: "4687",
    business: "Y",
    dpv: "D",
    suite: "STE 1900",
  },
  // Corrected: the building has one suite, which USPS adds.
  "600 CONGRESS AVE|78701": {
    street: "600 CONGRESS AVE",
    secondary: "STE 1400",
    suite: "STE 1400",
    city: "AUSTIN",
    state: "TX",
    zip: "78701",
    plus4: "3057",
    business: "Y",
    dpv: "Y",
  },
  // On the street's range, but not a delivery point.
  "1102 CONGRESS AVE|78701": {
    street: "1102 CONGRESS AVE",
    city: "AUSTIN",
    state: "TX",
    zip: "78701",
    plus4: "0000",
    business: "N",
    dpv: "N",
  },
  "100 MAIN ST|10001": "multiple",
};

const notFound = (message: string): EmulatorResponse => ({
  status: 404,
  body: { apiVersion: "v3", error: { code: "404", message, errors: [] } },
});

export function uspsAddress(req: EmulatorRequest): EmulatorResponse {
  const street = (req.query.get("streetAddress") ?? "").trim().toUpperCase().replace(/\s+/g, " ");
  const listed = DIRECTORY[`${street}|${req.query.get("ZIPCode") ?? ""}`];
  if (listed === "multiple") return notFound("More than one address was found matching the requested address.");
  if (!listed) return notFound("There is no match for the address requested.");
  const unit = (req.query.get("secondaryAddress") ?? "").trim().toUpperCase().replace(/\s+/g, " ");
  const found: Entry =
    listed.suite && unit ? { ...listed, secondary: unit, dpv: unit === listed.suite ? "Y" : "S" } : listed;
  return {
    status: 200,
    body: {
      address: {
        streetAddress: found.street,
        ...(found.secondary ? { secondaryAddress: found.secondary } : {}),
        city: found.city,
        state: found.state,
        ZIPCode: found.zip,
        ZIPPlus4: found.plus4,
      },
      additionalInfo: {
        deliveryPoint: "00",
        carrierRoute: "C012",
        DPVConfirmation: found.dpv,
        DPVCMRA: "N",
        business: found.business,
        centralDeliveryPoint: "N",
        vacant: "N",
      },
      corrections:
        found.dpv === "D"
          ? [{ code: "32", text: "Default address: more information, such as a suite number, is needed." }]
          : [],
      matches: found.dpv === "Y" ? [{ code: "31", text: "Single Response - exact match" }] : [],
    },
  };
}
