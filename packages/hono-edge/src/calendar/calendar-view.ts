import { calendarOf, dayOfSnapshot, dayPrices, waitingDay, type AirportDirectory, type CalendarDay, type CalendarSnapshot } from "@voar/core";
import type { SearchHub } from "../search/search-hub.js";
import { snapshotUsableUntil } from "../search/offer-validity.js";
import { dayQuery, dayWeight, type CalendarDayRecord, type CalendarRecord } from "./calendar-record.js";

/** What an expired day says: its prices stopped being current; the calendar's next request searches it again. */
export const DAY_EXPIRED = "Os preços deste dia deixaram de valer; a próxima consulta do calendário busca este dia de novo.";

/** A day whose prices may not be shown any more: no price, no search to open; `expired` once its search is over. */
const withoutPrices = (d: CalendarDay, expired: boolean): CalendarDay => {
  const { cash: _cash, miles: _miles, validUntil: _valid, ...unpriced } = d;
  if (!expired) return unpriced;
  const { searchId: _search, ...rest } = unpriced;
  return { ...rest, state: "expired", failure: DAY_EXPIRED };
};

/** A day as the calendar's record and, while it runs, its search show it: never with a price past its margin of validity at `now`. */
const dayOf = async (record: CalendarRecord, d: CalendarDayRecord, searches: SearchHub, airports: AirportDirectory, now: number): Promise<CalendarDay> => {
  const waiting = waitingDay(dayQuery(record, d), record.query);
  const base: CalendarDay = d.searchId === undefined ? waiting : { ...waiting, searchId: d.searchId };
  if (d.settled) {
    const { cash, miles, failure, validUntil } = d.settled;
    const day: CalendarDay = { ...base, state: "completed", version: d.settled.version, sources: d.settled.sources, ...(cash ? { cash } : {}), ...(miles ? { miles } : {}), ...(validUntil === undefined ? {} : { validUntil }), ...(failure === undefined ? {} : { failure }) };
    return d.settled.usableUntil !== undefined && now >= d.settled.usableUntil ? withoutPrices(day, true) : day;
  }
  if (d.searchId === undefined) return base;
  // The day's search, from any instance (taken over here when its owner stopped renewing its lease).
  const search = await searches.find(record.tenant, d.searchId);
  if (!search) return { ...base, state: "searching" };
  const s = await searches.snapshot(search);
  const day = dayOfSnapshot(base, s, dayPrices(s, airports));
  // Its offers are about to stop being current: no price from them (completed, the day is searched again).
  return now >= (snapshotUsableUntil(s) ?? Infinity) ? withoutPrices(day, s.completed) : day;
};

/**
 * The snapshot of a stored calendar at `now`, rebuilt on any instance: each settled day as its record keeps
 * it, each running day from its search's snapshot (the hub's cached rebuild), the others waiting; a day whose
 * prices are within their margin of validity shows no price (expired, once its search is over). The version
 * is the record's base plus each day's weight (its search's version, one once started, one once expired), so
 * it grows with every change whichever instance answers.
 */
export const calendarSnapshotOf = async (record: CalendarRecord, searches: SearchHub, airports: AirportDirectory, now: number): Promise<CalendarSnapshot> => {
  const days = await Promise.all(record.days.map((d) => dayOf(record, d, searches, airports, now)));
  const version = days.reduce((v, d) => v + dayWeight(d), record.versionBase ?? 0);
  return calendarOf(record.query, days, version);
};
