import { calendarOf, dayOfSnapshot, dayPrices, waitingDay, type AirportDirectory, type CalendarDay, type CalendarSnapshot } from "@voar/core";
import type { SearchHub } from "../search/search-hub.js";
import { dayQuery, type CalendarDayRecord, type CalendarRecord } from "./calendar-record.js";

/** A day as the calendar's record and, while it runs, its search show it. */
const dayOf = async (record: CalendarRecord, d: CalendarDayRecord, searches: SearchHub, airports: AirportDirectory): Promise<CalendarDay> => {
  const waiting = waitingDay(dayQuery(record, d), record.query);
  const base: CalendarDay = d.searchId === undefined ? waiting : { ...waiting, searchId: d.searchId };
  if (d.settled) {
    const { cash, miles, failure } = d.settled;
    return { ...base, state: "completed", version: d.settled.version, sources: d.settled.sources, ...(cash ? { cash } : {}), ...(miles ? { miles } : {}), ...(failure === undefined ? {} : { failure }) };
  }
  if (d.searchId === undefined) return base;
  // The day's search, from any instance (taken over here when its owner stopped renewing its lease).
  const search = await searches.find(record.tenant, d.searchId);
  if (!search) return { ...base, state: "searching" };
  const s = await searches.snapshot(search);
  return dayOfSnapshot(base, s, dayPrices(s, airports));
};

/**
 * The snapshot of a stored calendar, rebuilt on any instance: each settled day as its record keeps it, each
 * running day from its search's snapshot (the hub's cached rebuild), the others waiting. The version is
 * the sum of the days' search versions plus one per day started, so it grows with every change whichever
 * instance answers.
 */
export const calendarSnapshotOf = async (record: CalendarRecord, searches: SearchHub, airports: AirportDirectory): Promise<CalendarSnapshot> => {
  const days = await Promise.all(record.days.map((d) => dayOf(record, d, searches, airports)));
  const version = days.reduce((v, d) => v + d.version + (d.state === "waiting" ? 0 : 1), 0);
  return calendarOf(record.query, days, version);
};
