import type { AirportDirectory } from "../domain/airport.js";
import type { Offer } from "../domain/offer.js";
import type { SearchSnapshot } from "../engine/snapshot.js";
import { StringMap } from "../engine/string-map.js";
import { dayPrices, type DayPrices } from "../calendar/day-prices.js";

/** The cabin classes a price watch may ask for, as the wire writes them (`Cabine`). */
export const CABINS = ["economica", "premium", "executiva", "primeira"] as const;

/** A cabin class of a price watch. */
export type Cabin = (typeof CABINS)[number];

const fold = (s: string): string => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

/**
 * The cabin class of an offer's cabin as its source words it (`Economica`, `Executiva`, `Premium Economy`,
 * `Business`, `Primeira`...): premium economy before economy, anything unknown as economy (what sources write
 * when they name no class).
 */
export const cabinOf = (words: string): Cabin => {
  const w = fold(words);
  if (/premium/.test(w)) return "premium";
  if (/exec|business|busin/.test(w)) return "executiva";
  if (/prim|first/.test(w)) return "primeira";
  return "economica";
};

/** The offers of a snapshot in one cabin class, as a snapshot of their own (its other members shared). */
const inCabin = (s: SearchSnapshot, cabin: Cabin): SearchSnapshot => {
  const kept: [string, Offer][] = [];
  for (const [id, o] of s.offers) if (cabinOf(o.cabin) === cabin) kept.push([id, o]);
  return { ...s, offers: StringMap.of(kept) };
};

/**
 * The cheapest cash and award fares of a day's search (core's {@link dayPrices}) in every cabin class, and over
 * all of them (`todas`): what a price watch of any cabin compares. A cabin without offers has no entry.
 *
 * @example
 * const prices = dayPricesByCabin(snapshot, airports); // prices.executiva?.cash?.total.amount
 */
export const dayPricesByCabin = (s: SearchSnapshot, airports: AirportDirectory): Partial<Record<Cabin | "todas", DayPrices>> => {
  const out: Partial<Record<Cabin | "todas", DayPrices>> = {};
  const all = dayPrices(s, airports);
  if (all.cash || all.miles) out.todas = all;
  const present = new Set<Cabin>();
  for (const [, o] of s.offers) present.add(cabinOf(o.cabin));
  for (const cabin of present) {
    const p = dayPrices(present.size === 1 ? s : inCabin(s, cabin), airports);
    if (p.cash || p.miles) out[cabin] = p;
  }
  return out;
};
