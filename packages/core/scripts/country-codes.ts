/**
 * ISO 3166-1 alpha-2 codes of the data set's country names, for the airport table: the code is what the
 * directory names a country by in other languages (`Intl.DisplayNames`, runtime-neutral). Names come from
 * OpenFlights, in English; `i18n-iso-countries` (its English names and their aliases) reads most of them, and
 * {@link OPENFLIGHTS_COUNTRY_CODES} the ones OpenFlights spells its own way. Pure: core's tests load it.
 */
import countries from "i18n-iso-countries";

/**
 * OpenFlights country names `i18n-iso-countries` does not read, with their ISO codes. US minor outlying
 * islands share `UM`; the Netherlands Antilles, dissolved in 2010, have no code of their own today and stay
 * in English (empty code).
 */
export const OPENFLIGHTS_COUNTRY_CODES: ReadonlyMap<string, string> = new Map([
  ["Falkland Islands", "FK"],
  ["Congo (Brazzaville)", "CG"],
  ["Congo (Kinshasa)", "CD"],
  ["Swaziland", "SZ"],
  ["Moldova", "MD"],
  ["Macedonia", "MK"],
  ["Syria", "SY"],
  ["Midway Islands", "UM"],
  ["Micronesia", "FM"],
  ["Virgin Islands", "VI"],
  ["Netherlands Antilles", ""],
  ["British Virgin Islands", "VG"],
  ["Laos", "LA"],
  ["Macau", "MO"],
  ["Burma", "MM"],
  ["Brunei", "BN"],
  ["East Timor", "TL"],
  ["Johnston Atoll", "UM"],
  ["Wake Island", "UM"],
]);

/** Thrown for a country name neither `i18n-iso-countries` nor {@link OPENFLIGHTS_COUNTRY_CODES} knows. */
export class UnknownCountryError extends Error {
  override readonly name = "UnknownCountryError";
}

/** The ISO code of a data-set country name; empty for a country with none. Throws {@link UnknownCountryError}. */
export const countryCodeOf = (name: string): string => {
  const own = OPENFLIGHTS_COUNTRY_CODES.get(name);
  if (own !== undefined) return own;
  const code = countries.getAlpha2Code(name, "en");
  if (code === undefined) throw new UnknownCountryError(`country "${name}" has no ISO code: add it to OPENFLIGHTS_COUNTRY_CODES (scripts/country-codes.ts)`);
  return code;
};
