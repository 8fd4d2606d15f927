/**
 * The address form's built-in reference data: a compact list of countries (ISO 3166-1 alpha-2), the subdivisions of
 * the countries where the API requires `state_code` (US, CA, AU: lib/schemas/address.ts), and postal code patterns
 * where we are sure of them (Google's libaddressinput data). Anywhere else the postal code is free text.
 */

export interface Country {
  code: string;
  name: string;
}

export const COUNTRIES: readonly Country[] = [
  ["US", "United States"],
  ["CA", "Canada"],
  ["MX", "Mexico"],
  ["GB", "United Kingdom"],
  ["IE", "Ireland"],
  ["DE", "Germany"],
  ["FR", "France"],
  ["NL", "Netherlands"],
  ["BE", "Belgium"],
  ["LU", "Luxembourg"],
  ["AT", "Austria"],
  ["CH", "Switzerland"],
  ["IT", "Italy"],
  ["ES", "Spain"],
  ["PT", "Portugal"],
  ["DK", "Denmark"],
  ["SE", "Sweden"],
  ["NO", "Norway"],
  ["FI", "Finland"],
  ["IS", "Iceland"],
  ["PL", "Poland"],
  ["CZ", "Czechia"],
  ["SK", "Slovakia"],
  ["HU", "Hungary"],
  ["RO", "Romania"],
  ["BG", "Bulgaria"],
  ["GR", "Greece"],
  ["HR", "Croatia"],
  ["SI", "Slovenia"],
  ["EE", "Estonia"],
  ["LV", "Latvia"],
  ["LT", "Lithuania"],
  ["TR", "Türkiye"],
  ["IL", "Israel"],
  ["AE", "United Arab Emirates"],
  ["SA", "Saudi Arabia"],
  ["IN", "India"],
  ["CN", "China"],
  ["HK", "Hong Kong"],
  ["TW", "Taiwan"],
  ["JP", "Japan"],
  ["KR", "South Korea"],
  ["SG", "Singapore"],
  ["MY", "Malaysia"],
  ["TH", "Thailand"],
  ["VN", "Vietnam"],
  ["PH", "Philippines"],
  ["ID", "Indonesia"],
  ["AU", "Australia"],
  ["NZ", "New Zealand"],
  ["ZA", "South Africa"],
  ["NG", "Nigeria"],
  ["KE", "Kenya"],
  ["EG", "Egypt"],
  ["MA", "Morocco"],
  ["BR", "Brazil"],
  ["AR", "Argentina"],
  ["CL", "Chile"],
  ["CO", "Colombia"],
  ["PE", "Peru"],
  ["PR", "Puerto Rico"],
].map(([code, name]) => ({ code: code!, name: name! }));

export interface Subdivision {
  code: string;
  name: string;
}

const list = (entries: string): Subdivision[] =>
  entries.split(";").map((entry) => {
    const [code, name] = entry.split("=");
    return { code: code!, name: name! };
  });

const US_STATES = list(
  "AL=Alabama;AK=Alaska;AZ=Arizona;AR=Arkansas;CA=California;CO=Colorado;CT=Connecticut;DE=Delaware;" +
    "DC=District of Columbia;FL=Florida;GA=Georgia;HI=Hawaii;ID=Idaho;IL=Illinois;IN=Indiana;IA=Iowa;KS=Kansas;" +
    "KY=Kentucky;LA=Louisiana;ME=Maine;MD=Maryland;MA=Massachusetts;MI=Michigan;MN=Minnesota;MS=Mississippi;" +
    "MO=Missouri;MT=Montana;NE=Nebraska;NV=Nevada;NH=New Hampshire;NJ=New Jersey;NM=New Mexico;NY=New York;" +
    "NC=North Carolina;ND=North Dakota;OH=Ohio;OK=Oklahoma;OR=Oregon;PA=Pennsylvania;RI=Rhode Island;" +
    "SC=South Carolina;SD=South Dakota;TN=Tennessee;TX=Texas;UT=Utah;VT=Vermont;VA=Virginia;WA=Washington;" +
    "WV=West Virginia;WI=Wisconsin;WY=Wyoming;AS=American Samoa;GU=Guam;MP=Northern Mariana Islands;" +
    "PR=Puerto Rico;VI=U.S. Virgin Islands;AA=Armed Forces Americas;AE=Armed Forces Europe;AP=Armed Forces Pacific",
);

const CA_PROVINCES = list(
  "AB=Alberta;BC=British Columbia;MB=Manitoba;NB=New Brunswick;NL=Newfoundland and Labrador;" +
    "NT=Northwest Territories;NS=Nova Scotia;NU=Nunavut;ON=Ontario;PE=Prince Edward Island;QC=Quebec;" +
    "SK=Saskatchewan;YT=Yukon",
);

const AU_STATES = list(
  "ACT=Australian Capital Territory;NSW=New South Wales;NT=Northern Territory;QLD=Queensland;" +
    "SA=South Australia;TAS=Tasmania;VIC=Victoria;WA=Western Australia",
);

const SUBDIVISIONS: Record<string, { label: string; options: Subdivision[] }> = {
  US: { label: "State", options: US_STATES },
  CA: { label: "Province", options: CA_PROVINCES },
  AU: { label: "State", options: AU_STATES },
};

/** The state select for a country whose addresses need one, or null (the state is then optional free text). */
export function subdivisionsOf(countryCode: string): { label: string; options: Subdivision[] } | null {
  return SUBDIVISIONS[countryCode] ?? null;
}

interface PostalFormat {
  label: string;
  pattern: RegExp;
  example: string;
}

const POSTAL_FORMATS: Record<string, PostalFormat> = {
  US: { label: "ZIP code", pattern: /^\d{5}(-?\d{4})?$/, example: "94105 or 94105-1234" },
  CA: { label: "Postal code", pattern: /^[ABCEGHJ-NPRSTVXY]\d[A-Z] ?\d[A-Z]\d$/i, example: "K1A 0B1" },
  GB: { label: "Postcode", pattern: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i, example: "SW1A 1AA" },
  DE: { label: "Postal code", pattern: /^\d{5}$/, example: "10115" },
  FR: { label: "Postal code", pattern: /^\d{5}$/, example: "75008" },
  NL: { label: "Postal code", pattern: /^\d{4} ?[A-Z]{2}$/i, example: "1012 AB" },
  AU: { label: "Postcode", pattern: /^\d{4}$/, example: "2000" },
  JP: { label: "Postal code", pattern: /^\d{3}-?\d{4}$/, example: "100-0001" },
};

/** How a country writes its postal codes, when we know it. */
export function postalFormatOf(countryCode: string): PostalFormat | null {
  return POSTAL_FORMATS[countryCode] ?? null;
}

/** Why a postal code cannot be right for the country, or null when it may be (or we do not know the format). */
export function postalCodeProblem(countryCode: string, postalCode: string): string | null {
  const format = postalFormatOf(countryCode);
  const value = postalCode.trim();
  if (!format || value === "" || format.pattern.test(value)) return null;
  return `must look like ${format.example}`;
}

/** Carriers such as UPS and FedEx print at most 35 characters of a street line and cut the rest. */
export const STREET_LINE_PRINTED = 35;
