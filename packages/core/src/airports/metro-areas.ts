/**
 * IATA metropolitan area codes ("city codes"): one code for every airport of a city, as fares, GDS and
 * travellers use them (`NYC` for New York's JFK, LGA and EWR; `SAO` for São Paulo's GRU, CGH and VCP). The
 * OpenFlights data set lists airports only, so the common ones are listed here, as IATA assigns them
 * (IATA Airline Coding Directory, city codes with more than one airport); each code is none of the table's
 * airport codes, so it never hides an airport.
 */

/** Airports of each metropolitan area code, the busiest first. */
export const METRO_AREAS: ReadonlyMap<string, readonly string[]> = new Map([
  // Brazil
  ["SAO", ["GRU", "CGH", "VCP"]],
  ["RIO", ["GIG", "SDU"]],
  ["BHZ", ["CNF", "PLU"]],
  // The Americas
  ["NYC", ["JFK", "EWR", "LGA"]],
  ["WAS", ["IAD", "DCA", "BWI"]],
  ["CHI", ["ORD", "MDW"]],
  ["YTO", ["YYZ", "YTZ"]],
  ["BUE", ["EZE", "AEP"]],
  // Europe
  ["LON", ["LHR", "LGW", "STN", "LTN", "LCY", "SEN"]],
  ["PAR", ["CDG", "ORY", "BVA"]],
  ["MIL", ["MXP", "LIN", "BGY"]],
  ["ROM", ["FCO", "CIA"]],
  ["STO", ["ARN", "BMA", "NYO"]],
  ["MOW", ["SVO", "DME", "VKO"]],
  ["BUH", ["OTP", "BBU"]],
  ["REK", ["KEF", "RKV"]],
  // Asia
  ["TYO", ["HND", "NRT"]],
  ["OSA", ["KIX", "ITM", "UKB"]],
  ["SEL", ["ICN", "GMP"]],
  ["JKT", ["CGK", "HLP"]],
]);
