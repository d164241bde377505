import type { ModeAFlight, SearchSource } from "@voar/core";

/** A Mode A price group as a test identifies it: airline, price, payment, programme and fare (a group's key in core). */
export const groupId = (flight: ModeAFlight): string => {
  const s = flight.segments[0];
  return `${flight.validatingBy.iata}|${flight.fareGroup.priceWithTax}|${s?.PontosAdulto}|${s?.FidelityProgram}|${s?.fareProfile.fareFamily}|${s?.fareProfile.baggage?.quantity ?? 0}`;
};

/** Wraps sources to count how many times each is asked to search. */
export const countCalls = (sources: readonly SearchSource[]) => {
  const calls = new Map<string, number>();
  const wrapped = sources.map(
    (s): SearchSource => ({
      ...s,
      search: (query, signal) => {
        calls.set(s.id, (calls.get(s.id) ?? 0) + 1);
        return s.search(query, signal);
      },
    }),
  );
  return { sources: wrapped, calls, total: () => [...calls.values()].reduce((a, b) => a + b, 0) };
};

/** True when the elements common to both lists appear in the same relative order. */
export const sameRelativeOrder = (before: readonly string[], after: readonly string[]): boolean => {
  const kept = new Set(after);
  const common = before.filter((id) => kept.has(id));
  const inAfter = after.filter((id) => common.includes(id));
  return common.every((id, i) => inAfter[i] === id);
};
