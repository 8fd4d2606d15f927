/**
 * The first three digits of a US ZIP code tell the state (USPS's sectional centre allocation). A prefix range
 * belongs to one state or territory; a few prefixes inside another state's range are listed on their own (055 is
 * Massachusetts, 201 Virginia, 733 and 885 Texas, 569 the District of Columbia).
 */
const RANGES: readonly [from: number, to: number, state: string][] = [
  [5, 5, "NY"],
  [6, 7, "PR"],
  [8, 8, "VI"],
  [9, 9, "PR"],
  [10, 27, "MA"],
  [28, 29, "RI"],
  [30, 38, "NH"],
  [39, 49, "ME"],
  [50, 54, "VT"],
  [55, 55, "MA"],
  [56, 59, "VT"],
  [60, 69, "CT"],
  [70, 89, "NJ"],
  [90, 99, "AE"],
  [100, 149, "NY"],
  [150, 196, "PA"],
  [197, 199, "DE"],
  [200, 200, "DC"],
  [201, 201, "VA"],
  [202, 205, "DC"],
  [206, 219, "MD"],
  [220, 246, "VA"],
  [247, 268, "WV"],
  [270, 289, "NC"],
  [290, 299, "SC"],
  [300, 319, "GA"],
  [320, 339, "FL"],
  [340, 340, "AA"],
  [341, 349, "FL"],
  [350, 369, "AL"],
  [370, 385, "TN"],
  [386, 397, "MS"],
  [398, 399, "GA"],
  [400, 427, "KY"],
  [430, 459, "OH"],
  [460, 479, "IN"],
  [480, 499, "MI"],
  [500, 528, "IA"],
  [530, 549, "WI"],
  [550, 567, "MN"],
  [569, 569, "DC"],
  [570, 577, "SD"],
  [580, 588, "ND"],
  [590, 599, "MT"],
  [600, 629, "IL"],
  [630, 658, "MO"],
  [660, 679, "KS"],
  [680, 693, "NE"],
  [700, 714, "LA"],
  [716, 729, "AR"],
  [730, 732, "OK"],
  [733, 733, "TX"],
  [734, 749, "OK"],
  [750, 799, "TX"],
  [800, 816, "CO"],
  [820, 831, "WY"],
  [832, 838, "ID"],
  [840, 847, "UT"],
  [850, 865, "AZ"],
  [870, 884, "NM"],
  [885, 885, "TX"],
  [889, 898, "NV"],
  [900, 961, "CA"],
  [962, 966, "AP"],
  [967, 968, "HI"],
  [969, 969, "GU"],
  [970, 979, "OR"],
  [980, 994, "WA"],
  [995, 999, "AK"],
];

// 969 serves Guam and the Pacific territories and freely associated states, which write their own codes.
const PACIFIC = new Set(["GU", "AS", "MP", "FM", "MH", "PW"]);

/**
 * Whole ZIP codes of a place outside their prefix's state: American Samoa's one ZIP sits in Hawaii's 967, and Alta,
 * Wyoming is served from Driggs, Idaho (834).
 */
const ZIPS: Readonly<Record<string, string>> = { "96799": "AS", "83414": "WY" };

/** The state a US ZIP code belongs to; null for a prefix no state uses (or not five digits). */
function stateOfZip(zip: string): string | null {
  const m = /^((\d{3})\d{2})(?:-?\d{4})?$/.exec(zip.trim());
  if (!m) return null;
  if (Object.hasOwn(ZIPS, m[1]!)) return ZIPS[m[1]!]!;
  const prefix = Number(m[2]);
  return RANGES.find(([from, to]) => prefix >= from && prefix <= to)?.[2] ?? null;
}

export function zipMatchesState(zip: string, state: string): boolean | null {
  const expected = stateOfZip(zip);
  if (expected === null) return null;
  return expected === state || (expected === "GU" && PACIFIC.has(state));
}

/** Canada: the postal code's first letter names the province (X covers both territories in the north). */
const CANADA: Record<string, readonly string[]> = {
  A: ["NL"],
  B: ["NS"],
  C: ["PE"],
  E: ["NB"],
  G: ["QC"],
  H: ["QC"],
  J: ["QC"],
  K: ["ON"],
  L: ["ON"],
  M: ["ON"],
  N: ["ON"],
  P: ["ON"],
  R: ["MB"],
  S: ["SK"],
  T: ["AB"],
  V: ["BC"],
  X: ["NT", "NU"],
  Y: ["YT"],
};

export function canadianPostalMatchesProvince(postal: string, province: string): boolean | null {
  const provinces = CANADA[postal.trim().charAt(0).toUpperCase()];
  return provinces ? provinces.includes(province) : null;
}
