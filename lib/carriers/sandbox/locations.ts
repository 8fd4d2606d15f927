import type { Address } from "@/lib/carriers/types";

/**
 * Real places for simulated tracking events. A tracking number carries two-digit country indexes and one-digit
 * city indexes into this table (tracking-number.ts), so events name plausible, stable places without the sandbox
 * storing anything. **Append only**: reordering would move the parcels of numbers already handed out.
 */

interface Place {
  city: string;
  /** State/province code where addresses in that country use one. */
  state: string | null;
  /** IANA time zone: event times are reported in local time, as carriers do. */
  tz: string;
}

export interface CountryPlaces {
  code: string;
  /** Up to 10 cities (the index is one digit). */
  cities: Place[];
  /** Sort hubs; the first is also the international gateway. */
  hubs: Place[];
  /** City index by the first digit of a postal code, for addresses in cities the table does not list. */
  byPostalDigit?: number[];
}

const p = (city: string, tz: string, state: string | null = null): Place => ({ city, state, tz });

const NY = "America/New_York";
const LA = "America/Los_Angeles";
const CHI = "America/Chicago";

export const COUNTRIES: readonly CountryPlaces[] = [
  {
    code: "US",
    cities: [
      p("New York", NY, "NY"),
      p("Los Angeles", LA, "CA"),
      p("Chicago", CHI, "IL"),
      p("Houston", CHI, "TX"),
      p("Atlanta", NY, "GA"),
      p("Seattle", LA, "WA"),
      p("Denver", "America/Denver", "CO"),
      p("Miami", NY, "FL"),
      p("Boston", NY, "MA"),
      p("San Francisco", LA, "CA"),
    ],
    hubs: [
      p("Louisville", "America/Kentucky/Louisville", "KY"),
      p("Memphis", CHI, "TN"),
      p("Indianapolis", "America/Indiana/Indianapolis", "IN"),
    ],
    // ZIP regions: 0 New England, 1 NY/PA, 2–3 South-East, 4–6 Mid-West, 7 South, 8 Mountain, 9 West Coast.
    byPostalDigit: [8, 0, 4, 4, 2, 2, 2, 3, 6, 1],
  },
  {
    code: "CA",
    cities: [
      p("Toronto", "America/Toronto", "ON"),
      p("Montreal", "America/Toronto", "QC"),
      p("Vancouver", "America/Vancouver", "BC"),
      p("Calgary", "America/Edmonton", "AB"),
      p("Ottawa", "America/Toronto", "ON"),
      p("Edmonton", "America/Edmonton", "AB"),
      p("Winnipeg", "America/Winnipeg", "MB"),
      p("Halifax", "America/Halifax", "NS"),
    ],
    hubs: [p("Mississauga", "America/Toronto", "ON"), p("Calgary", "America/Edmonton", "AB")],
  },
  {
    code: "GB",
    cities: ["London", "Manchester", "Birmingham", "Glasgow", "Leeds", "Bristol", "Edinburgh", "Liverpool"].map((c) =>
      p(c, "Europe/London"),
    ),
    hubs: [p("Coventry", "Europe/London"), p("Warrington", "Europe/London")],
  },
  {
    code: "DE",
    cities: ["Berlin", "Hamburg", "Munich", "Cologne", "Frankfurt am Main", "Stuttgart", "Düsseldorf", "Leipzig"].map(
      (c) => p(c, "Europe/Berlin"),
    ),
    hubs: [p("Leipzig", "Europe/Berlin"), p("Frankfurt am Main", "Europe/Berlin")],
  },
  {
    code: "FR",
    cities: ["Paris", "Lyon", "Marseille", "Toulouse", "Lille", "Bordeaux", "Nantes", "Nice"].map((c) =>
      p(c, "Europe/Paris"),
    ),
    hubs: [p("Roissy-en-France", "Europe/Paris"), p("Lyon", "Europe/Paris")],
  },
  {
    code: "NL",
    cities: ["Amsterdam", "Rotterdam", "The Hague", "Utrecht", "Eindhoven"].map((c) => p(c, "Europe/Amsterdam")),
    hubs: [p("Hoofddorp", "Europe/Amsterdam")],
  },
  {
    code: "BE",
    cities: ["Brussels", "Antwerp", "Ghent", "Liège"].map((c) => p(c, "Europe/Brussels")),
    hubs: [p("Liège", "Europe/Brussels")],
  },
  {
    code: "ES",
    cities: ["Madrid", "Barcelona", "Valencia", "Seville", "Bilbao"].map((c) => p(c, "Europe/Madrid")),
    hubs: [p("Madrid", "Europe/Madrid")],
  },
  {
    code: "IT",
    cities: ["Rome", "Milan", "Naples", "Turin", "Bologna", "Florence"].map((c) => p(c, "Europe/Rome")),
    hubs: [p("Milan", "Europe/Rome"), p("Bologna", "Europe/Rome")],
  },
  {
    code: "IE",
    cities: ["Dublin", "Cork", "Galway"].map((c) => p(c, "Europe/Dublin")),
    hubs: [p("Dublin", "Europe/Dublin")],
  },
  {
    code: "AT",
    cities: ["Vienna", "Graz", "Linz", "Salzburg"].map((c) => p(c, "Europe/Vienna")),
    hubs: [p("Vienna", "Europe/Vienna")],
  },
  {
    code: "CH",
    cities: ["Zurich", "Geneva", "Basel", "Bern"].map((c) => p(c, "Europe/Zurich")),
    hubs: [p("Zurich", "Europe/Zurich")],
  },
  {
    code: "SE",
    cities: ["Stockholm", "Gothenburg", "Malmö"].map((c) => p(c, "Europe/Stockholm")),
    hubs: [p("Jönköping", "Europe/Stockholm")],
  },
  {
    code: "DK",
    cities: ["Copenhagen", "Aarhus", "Odense"].map((c) => p(c, "Europe/Copenhagen")),
    hubs: [p("Copenhagen", "Europe/Copenhagen")],
  },
  {
    code: "NO",
    cities: ["Oslo", "Bergen", "Trondheim"].map((c) => p(c, "Europe/Oslo")),
    hubs: [p("Oslo", "Europe/Oslo")],
  },
  {
    code: "FI",
    cities: ["Helsinki", "Espoo", "Tampere"].map((c) => p(c, "Europe/Helsinki")),
    hubs: [p("Vantaa", "Europe/Helsinki")],
  },
  {
    code: "PL",
    cities: ["Warsaw", "Kraków", "Wrocław", "Poznań", "Gdańsk"].map((c) => p(c, "Europe/Warsaw")),
    hubs: [p("Stryków", "Europe/Warsaw")],
  },
  { code: "PT", cities: ["Lisbon", "Porto"].map((c) => p(c, "Europe/Lisbon")), hubs: [p("Lisbon", "Europe/Lisbon")] },
  {
    code: "AU",
    cities: [
      p("Sydney", "Australia/Sydney", "NSW"),
      p("Melbourne", "Australia/Melbourne", "VIC"),
      p("Brisbane", "Australia/Brisbane", "QLD"),
      p("Perth", "Australia/Perth", "WA"),
      p("Adelaide", "Australia/Adelaide", "SA"),
      p("Canberra", "Australia/Sydney", "ACT"),
    ],
    hubs: [p("Mascot", "Australia/Sydney", "NSW"), p("Tullamarine", "Australia/Melbourne", "VIC")],
  },
  {
    code: "NZ",
    cities: ["Auckland", "Wellington", "Christchurch"].map((c) => p(c, "Pacific/Auckland")),
    hubs: [p("Auckland", "Pacific/Auckland")],
  },
  {
    code: "MX",
    cities: [
      p("Mexico City", "America/Mexico_City"),
      p("Guadalajara", "America/Mexico_City"),
      p("Monterrey", "America/Monterrey"),
    ],
    hubs: [p("Mexico City", "America/Mexico_City")],
  },
  {
    code: "BR",
    cities: ["São Paulo", "Rio de Janeiro", "Brasília"].map((c) => p(c, "America/Sao_Paulo")),
    hubs: [p("Campinas", "America/Sao_Paulo")],
  },
  {
    code: "JP",
    cities: ["Tokyo", "Osaka", "Nagoya", "Fukuoka"].map((c) => p(c, "Asia/Tokyo")),
    hubs: [p("Narita", "Asia/Tokyo")],
  },
  { code: "KR", cities: ["Seoul", "Busan"].map((c) => p(c, "Asia/Seoul")), hubs: [p("Incheon", "Asia/Seoul")] },
  {
    code: "CN",
    cities: ["Shanghai", "Beijing", "Shenzhen", "Guangzhou"].map((c) => p(c, "Asia/Shanghai")),
    hubs: [p("Shanghai", "Asia/Shanghai")],
  },
  { code: "HK", cities: [p("Hong Kong", "Asia/Hong_Kong")], hubs: [p("Hong Kong", "Asia/Hong_Kong")] },
  { code: "SG", cities: [p("Singapore", "Asia/Singapore")], hubs: [p("Singapore", "Asia/Singapore")] },
  {
    code: "IN",
    cities: ["Mumbai", "New Delhi", "Bengaluru", "Chennai"].map((c) => p(c, "Asia/Kolkata")),
    hubs: [p("New Delhi", "Asia/Kolkata")],
  },
  { code: "AE", cities: ["Dubai", "Abu Dhabi"].map((c) => p(c, "Asia/Dubai")), hubs: [p("Dubai", "Asia/Dubai")] },
  {
    code: "ZA",
    cities: ["Johannesburg", "Cape Town", "Durban"].map((c) => p(c, "Africa/Johannesburg")),
    hubs: [p("Johannesburg", "Africa/Johannesburg")],
  },
];

/** Country index for countries the table does not list; their events show a generic service centre. */
export const OTHER_COUNTRY_INDEX = 99;
const OTHER_PLACE: Place = { city: "Sandbox International Service Center", state: null, tz: "UTC" };

export function countryIndex(countryCode: string): number {
  const i = COUNTRIES.findIndex((c) => c.code === countryCode.toUpperCase());
  return i === -1 ? OTHER_COUNTRY_INDEX : i;
}

const fold = (s: string): string =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim();

// Local spellings of listed cities (compared after folding accents and case). A Map: the key is a client's city,
// and "constructor" must not find Object.prototype's.
const LOCAL_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    munchen: "Munich",
    koln: "Cologne",
    frankfurt: "Frankfurt am Main",
    wien: "Vienna",
    roma: "Rome",
    milano: "Milan",
    napoli: "Naples",
    torino: "Turin",
    firenze: "Florence",
    lisboa: "Lisbon",
    geneve: "Geneva",
    genf: "Geneva",
    bruxelles: "Brussels",
    brussel: "Brussels",
    antwerpen: "Antwerp",
    anvers: "Antwerp",
    gent: "Ghent",
    "den haag": "The Hague",
    "'s-gravenhage": "The Hague",
    goteborg: "Gothenburg",
    kobenhavn: "Copenhagen",
    warszawa: "Warsaw",
    sevilla: "Seville",
    "ciudad de mexico": "Mexico City",
    cdmx: "Mexico City",
    nyc: "New York",
    "new york city": "New York",
  }),
);

/** The listed city an address belongs to: same name, else same state, else by postal region, else by a hash. */
export function cityIndex(country: number, address: Address): number {
  const entry = COUNTRIES[country];
  if (!entry) return 0;
  const name = fold(LOCAL_NAMES.get(fold(address.city)) ?? address.city);
  const byName = entry.cities.findIndex((c) => fold(c.city) === name);
  if (byName !== -1) return byName;
  const state = address.state_code.trim().toUpperCase();
  const byState = state ? entry.cities.findIndex((c) => c.state === state) : -1;
  if (byState !== -1) return byState;
  const digit = address.postal_code.trim().match(/^[0-9]/)?.[0];
  const mapped = digit !== undefined ? entry.byPostalDigit?.[Number(digit)] : undefined;
  if (mapped !== undefined) return mapped;
  let hash = 0;
  for (const ch of address.postal_code) hash = (hash * 31 + ch.charCodeAt(0)) % 9973;
  return hash % entry.cities.length;
}

export interface LocatedPlace {
  place: Place;
  /** "Memphis, TN, US" style free text, as carriers put in event locations. */
  label: string;
}

function locate(country: number, place: Place | undefined): LocatedPlace {
  const entry = COUNTRIES[country];
  if (!entry || !place) return { place: OTHER_PLACE, label: OTHER_PLACE.city };
  return { place, label: [place.city, place.state, entry.code].filter(Boolean).join(", ") };
}

export function cityPlace(country: number, city: number): LocatedPlace {
  const entry = COUNTRIES[country];
  return locate(country, entry?.cities[city % Math.max(1, entry.cities.length)]);
}

/** A domestic sort hub picked by the route, so the same route always passes the same hub. */
export function sortHub(country: number, originCity: number, destinationCity: number): LocatedPlace {
  const hubs = COUNTRIES[country]?.hubs ?? [];
  return locate(country, hubs[(originCity + destinationCity) % Math.max(1, hubs.length)]);
}

/** The country's international gateway (its first hub). */
export function gateway(country: number): LocatedPlace {
  return locate(country, COUNTRIES[country]?.hubs[0]);
}
