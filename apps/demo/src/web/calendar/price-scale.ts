/**
 * The calendar strip's colour scale: each day's price placed from the cheapest day (0) to the dearest
 * (`LEVELS - 1`) among the days priced so far, so the cheap days stand out at a glance. A day without a
 * price has no level.
 */

/** Steps of the scale, cheap to dear. */
export const LEVELS = 5;

/**
 * The level of each value (`null`: no price), by its place between the cheapest and the dearest value:
 * equal values share a level; with one distinct value, every priced day is the cheapest.
 *
 * @example
 * priceLevels([100, null, 300, 200]); // [0, null, 4, 2]
 */
export const priceLevels = (values: readonly (number | null)[]): (number | null)[] => {
  const priced = values.filter((v): v is number => v !== null);
  if (priced.length === 0) return values.map(() => null);
  const min = Math.min(...priced);
  const max = Math.max(...priced);
  return values.map((v) => (v === null ? null : max === min ? 0 : Math.round(((v - min) / (max - min)) * (LEVELS - 1))));
};
