import { hasResults, search, type SearchQuery } from "@voar/core";
import { createSimulator } from "@voar/testing/simulator";
import { filter, lastValueFrom, race } from "rxjs";
import { expect, observed } from "./observed-sources.js";
import { daysAhead, queryOf } from "./query.js";

const friday = daysAhead(25);
const saturday = daysAhead(26);
// The Saturday search is served faster here (300 ms against 3 s), so it wins the race.
const { sources, log } = observed(createSimulator({ latencyMs: (_id, q: SearchQuery) => (q.departureDate === saturday ? 300 : 3_000) }).sources);
const on = (ida: string) => queryOf({ Origem: "BSB", Destino: "SSA", Ida: ida });

// Two date options at once; whichever first has offers wins, and the other search is unsubscribed (aborted).
const firstWithOffers = (query: SearchQuery) => search(query, sources).pipe(filter(hasResults));
const winner = await lastValueFrom(race(firstWithOffers(on(friday)), firstWithOffers(on(saturday))));

// Unsubscribing interrupts the sources' Effect fibers; their signals fire as the interruption runs, a moment later.
await new Promise((resolve) => setTimeout(resolve, 20));
console.log("racing two dates:");
expect(winner.query.departureDate === saturday && winner.completed, `the Saturday search won and ran to completion (${winner.offers.size} offers)`);
const fridays = log.started.filter((s) => s.includes(`|${friday}|`));
expect(fridays.length > 0 && fridays.every((s) => log.aborted.includes(s)), `the ${fridays.length} sources of the losing Friday search were aborted`);
