/**
 * How the shipped airport table is packed (see `airport-data.generated.ts` and the generator in
 * `scripts/airport-table.ts`): one string per field, so that gzip sees like next to like; names that contain
 * their city hold {@link CITY_MARK} in its place; coordinates are written as the shortest decimal that gives
 * back the source's exact number (see {@link unpackCoordinate}).
 */

/** Stands for the airport's city inside its name (`~ International Airport`). */
export const CITY_MARK = "~";

/** Separates the entries of a packed list (names, cities, indexes, coordinates). */
export const ENTRY_SEPARATOR = "\n";

/** Suffix of a coordinate that is a 32-bit float: `-9.44338f` is `Math.fround(-9.44338)` (-9.443380355834961). */
export const FLOAT32 = "f";

/**
 * First of the suffixes for a 32-bit float printed to a number of significant digits, `A` for 1 to `Q` for 17:
 * `-5.20708L` is `Number(Math.fround(-5.20708).toPrecision(12))` (-5.20707988739), as the data set holds many.
 */
export const PRECISION_BASE = "A".charCodeAt(0) - 1;

/** The number a packed coordinate stands for, exactly the source's (the generator checks every one). */
export const unpackCoordinate = (packed: string): number => {
  const last = packed.charCodeAt(packed.length - 1);
  if (packed.endsWith(FLOAT32)) return Math.fround(Number(packed.slice(0, -1)));
  const digits = last - PRECISION_BASE;
  if (digits >= 1 && digits <= 17) return Number(Math.fround(Number(packed.slice(0, -1))).toPrecision(digits));
  return Number(packed);
};

/** An airport's name from its packed form and its city. */
export const unpackName = (packed: string, city: string): string => packed.replace(CITY_MARK, () => city);
