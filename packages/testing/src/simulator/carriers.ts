/**
 * How each airline of decisions.md flies in the simulator: hubs, home market, international routes,
 * codeshare feeder, flight numbers, aircraft and its miles programme's economics.
 * Route lists are plausible, not a copy of any real timetable.
 */

/** An inclusive range of flight numbers. */
export type NumberRange = readonly [min: number, max: number];

/** The economics of an airline's miles programme, used to price award seats. */
export interface ProgrammeEconomics {
  /** Points asked per real of the cash fare (dynamic award pricing), drawn in this range. */
  readonly pointsPerReal: readonly [min: number, max: number];
  /** What one point is worth in cash, in reais: the value an offer paid in miles is compared at. */
  readonly realPerPoint: number;
  /** Award prices are rounded to a multiple of this. */
  readonly rounding: number;
  /** Share of flights with award seats on sale. */
  readonly awardShare: number;
  /** Child points as a share of adult points. */
  readonly childShare: number;
}

/** The network and commercial profile of one simulated airline. */
export interface CarrierProfile {
  /** Companhia id of decisions.md (`AIRLINES` of `@voar/core`). */
  readonly airlineId: number;
  /** Source and seller id, e.g. `latam`. */
  readonly slug: string;
  /** Country of the home market, as the airport data names it (`Brazil`, `United States`). */
  readonly homeCountry: string;
  /** Where it connects passengers. */
  readonly hubs: readonly string[];
  /**
   * Regional bases: they connect the small airports within {@link FOCUS_RADIUS_KM} of them, as hubs do,
   * so that two small airports of a region (Oriximiná and Parintins) connect without crossing the country.
   */
  readonly focusCities?: readonly string[] | undefined;
  /** Home-market airports flown from every hub. */
  readonly majors: readonly string[];
  /** Share of the other home-market airports it serves (from at least the nearest hub). */
  readonly minorShare: number;
  /** International routes: hub to destinations flown nonstop from it. */
  readonly international: Readonly<Record<string, readonly string[]>>;
  /** Companhia id of the partner whose home-market flights feed this airline's gateways as codeshares. */
  readonly feederId?: number | undefined;
  readonly numbers: { readonly domestic: NumberRange; readonly international: NumberRange; readonly codeshare: NumberRange };
  /** IATA aircraft type codes for short and long flights. */
  readonly aircraft: { readonly short: readonly [string, ...string[]]; readonly long: readonly [string, ...string[]] };
  /** Multiplies the base cash fare. */
  readonly priceFactor: number;
  /** Child cash fare as a share of the adult fare. */
  readonly childFareShare: number;
  readonly miles: ProgrammeEconomics;
}

/** How far from a focus city the small airports it connects may be. */
export const FOCUS_RADIUS_KM = 1000;

const BRAZIL_MAJORS = [
  "GRU", "CGH", "GIG", "SDU", "BSB", "CNF", "VCP", "REC", "SSA", "FOR", "POA", "CWB", "FLN", "BEL", "MAO", "NAT",
  "MCZ", "VIX", "GYN", "CGB", "CGR", "THE", "SLZ", "JPA", "AJU", "IOS", "PMW", "NVT", "IGU", "LDB", "UDI", "RAO",
  "PVH", "RBR", "BVB", "MCP", "JOI", "SJP", "MGF", "BPS", "STM", "MAB",
];
const US_MAJORS = [
  "JFK", "LGA", "EWR", "BOS", "ORD", "LAX", "SFO", "SEA", "ATL", "DEN", "LAS", "PHX", "IAH", "CLT", "PHL", "DCA",
  "IAD", "MCO", "TPA", "FLL", "MSP", "DTW", "SAN", "AUS", "SAT", "MSY", "BNA", "RDU",
];
const EUROPE = ["CDG", "LHR", "FCO", "MXP", "FRA", "MUC", "AMS", "BRU", "ZRH", "GVA", "DUB", "BCN"];
const SOUTH_AMERICA = ["EZE", "SCL", "LIM", "BOG", "MVD", "ASU", "UIO", "GYE", "MDE"];

/** The simulated network, one profile per airline of decisions.md. */
export const CARRIER_PROFILES: readonly CarrierProfile[] = [
  {
    airlineId: 1, slug: "latam", homeCountry: "Brazil", hubs: ["GRU", "CGH", "BSB"], majors: BRAZIL_MAJORS, minorShare: 0.45,
    international: { GRU: ["LIS", "MAD", "BCN", "FCO", "MXP", "FRA", "LHR", "CDG", "JFK", "MIA", "MCO", "BOS", "SCL", "LIM", "EZE", "BOG", "MVD", "ASU", "JNB"] },
    numbers: { domestic: [3000, 4799], international: [8000, 8199], codeshare: [5000, 5999] },
    aircraft: { short: ["320", "321", "319"], long: ["789", "77W", "763"] },
    priceFactor: 1.05, childFareShare: 1,
    miles: { pointsPerReal: [28, 45], realPerPoint: 0.0062, rounding: 1, awardShare: 0.75, childShare: 1 },
  },
  {
    airlineId: 2, slug: "gol", homeCountry: "Brazil", hubs: ["GRU", "CGH", "BSB", "GIG"], majors: BRAZIL_MAJORS, minorShare: 0.35,
    international: { GRU: ["EZE", "MVD", "ASU", "SCL", "LIM"], BSB: ["MIA", "MCO"], GIG: ["EZE", "MVD"] },
    numbers: { domestic: [1000, 2099], international: [7400, 7799], codeshare: [6000, 6999] },
    aircraft: { short: ["7M8", "738"], long: ["7M8"] },
    priceFactor: 0.95, childFareShare: 1,
    miles: { pointsPerReal: [35, 60], realPerPoint: 0.0056, rounding: 100, awardShare: 0.8, childShare: 1 },
  },
  {
    // Like the real one, the simulated Azul serves every airport of Brazil: two small ones always connect.
    airlineId: 3, slug: "azul", homeCountry: "Brazil", hubs: ["VCP", "CNF", "REC"], focusCities: ["BEL", "MAO", "CGB", "POA", "SSA", "GYN"],
    majors: BRAZIL_MAJORS, minorShare: 1,
    international: { VCP: ["LIS", "OPO", "FLL", "MCO", "CDG", "EZE", "MVD"], REC: ["FLL"] },
    numbers: { domestic: [2000, 6999], international: [8700, 8799], codeshare: [7000, 7999] },
    aircraft: { short: ["E95", "32N", "AT7"], long: ["339"] },
    priceFactor: 1, childFareShare: 0.9,
    miles: { pointsPerReal: [30, 55], realPerPoint: 0.0072, rounding: 1, awardShare: 0.7, childShare: 1 },
  },
  {
    airlineId: 11, slug: "tap", homeCountry: "Portugal", hubs: ["LIS", "OPO"], majors: ["FAO", "FNC", "PDL"], minorShare: 0.3,
    international: {
      LIS: ["GRU", "GIG", "CNF", "BSB", "REC", "SSA", "FOR", "NAT", "POA", "BEL", "MCZ", "FLN", ...EUROPE, "MAD", "JFK", "EWR", "BOS", "MIA", "IAD", "LAD", "MPM"],
      OPO: ["GRU", "GIG", "MAD", "CDG", "LHR", "FRA", "EWR"],
    },
    feederId: 3,
    numbers: { domestic: [1900, 1999], international: [1, 1399], codeshare: [8000, 8999] },
    aircraft: { short: ["32N", "E90", "21N"], long: ["339", "32Q"] },
    priceFactor: 1, childFareShare: 0.75,
    miles: { pointsPerReal: [8, 14], realPerPoint: 0.02, rounding: 500, awardShare: 0.6, childShare: 0.75 },
  },
  {
    airlineId: 13, slug: "copa", homeCountry: "Panama", hubs: ["PTY"], majors: [], minorShare: 0,
    international: {
      PTY: ["GRU", "GIG", "BSB", "CNF", "POA", "MAO", "REC", "SSA", "FLN", ...SOUTH_AMERICA, "MEX", "CUN", "SJO", "GUA", "HAV", "SDQ", "SJU", "MIA", "MCO", "JFK", "LAX", "ORD", "BOS", "IAD", "LAS", "SFO", "TPA", "FLL"],
    },
    feederId: 2,
    numbers: { domestic: [100, 199], international: [200, 899], codeshare: [7000, 7999] },
    aircraft: { short: ["738", "7M9"], long: ["7M9", "738"] },
    priceFactor: 0.95, childFareShare: 0.75,
    miles: { pointsPerReal: [10, 16], realPerPoint: 0.017, rounding: 500, awardShare: 0.6, childShare: 1 },
  },
  {
    airlineId: 22, slug: "american", homeCountry: "United States", hubs: ["MIA", "DFW"], majors: US_MAJORS, minorShare: 0.35,
    international: {
      MIA: ["GRU", "GIG", "BSB", "MAO", "EZE", "SCL", "LIM", "BOG", "MDE", "UIO", "MEX", "CUN", "PTY", "SJO", "SDQ", "HAV", "MAD", "LHR", "BCN"],
      DFW: ["GRU", "EZE", "SCL", "LHR", "MAD", "CDG", "FRA", "NRT", "MEX"],
    },
    feederId: 2,
    numbers: { domestic: [1000, 2999], international: [1, 999], codeshare: [6000, 7999] },
    aircraft: { short: ["738", "321"], long: ["772", "788", "789"] },
    priceFactor: 1.1, childFareShare: 0.8,
    miles: { pointsPerReal: [6, 10], realPerPoint: 0.019, rounding: 500, awardShare: 0.55, childShare: 1 },
  },
  {
    airlineId: 26, slug: "iberia", homeCountry: "Spain", hubs: ["MAD"],
    majors: ["BCN", "AGP", "PMI", "SVQ", "VLC", "BIO", "ALC", "LPA", "TFN", "TFS", "IBZ", "SCQ", "VGO", "OVD"], minorShare: 0.4,
    international: {
      MAD: ["GRU", "GIG", "EZE", "SCL", "LIM", "BOG", "MEX", "MIA", "JFK", "BOS", "ORD", "LAX", "SJU", "HAV", "PTY", "LIS", "OPO", "CDG", "LHR", "FCO", "MXP", "FRA", "MUC", "AMS", "BRU", "ZRH", "DUB", "ATH"],
    },
    feederId: 1,
    numbers: { domestic: [3000, 3999], international: [6000, 6899], codeshare: [2000, 2999] },
    aircraft: { short: ["320", "32N", "321"], long: ["359", "332", "351"] },
    priceFactor: 1, childFareShare: 0.75,
    miles: { pointsPerReal: [5, 9], realPerPoint: 0.018, rounding: 250, awardShare: 0.6, childShare: 1 },
  },
];

const byId = new Map(CARRIER_PROFILES.map((p) => [p.airlineId, p]));

/** The profile of a Companhia id, if the simulator flies it. */
export const carrierProfile = (airlineId: number): CarrierProfile | undefined => byId.get(airlineId);
