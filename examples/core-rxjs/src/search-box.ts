import { search, type SearchSnapshot } from "@voar/core";
import { createSimulator } from "@voar/testing/simulator";
import { debounceTime, distinctUntilChanged, filter, lastValueFrom, map, Subject, switchMap, takeWhile } from "rxjs";
import { expect, observed } from "./observed-sources.js";
import { daysAhead, queryOf } from "./query.js";

// The first route's sources take 3 s, long enough for the user to change their mind while its search runs.
const { sources, log } = observed(createSimulator({ latencyMs: (_id, query) => (query.destination === "SDU" ? 3_000 : 400) }).sources);

// The text of a search box, as keystrokes: "CNF SDU" (origin and destination).
const typed = new Subject<string>();

const results$ = typed.pipe(
  debounceTime(50), // wait until the user pauses typing
  map((text) => text.trim().toUpperCase()),
  filter((text) => /^[A-Z]{3} [A-Z]{3}$/.test(text)),
  distinctUntilChanged(),
  map((text) => {
    const [origem, destino] = text.split(" ");
    return queryOf({ Origem: origem, Destino: destino, Ida: daysAhead(30) });
  }),
  // A new route unsubscribes from the previous search: the engine aborts every source still running it.
  switchMap((query) => search(query, sources)),
);

const seen: SearchSnapshot[] = [];
const done = lastValueFrom(
  results$.pipe(
    takeWhile((s) => !(s.completed && s.query.destination === "GIG"), true),
    map((s) => (seen.push(s), s)),
  ),
);

// The user types one route, waits 150 ms (its search is running), then changes the destination.
for (const text of ["CNF", "CNF S", "CNF SDU"]) typed.next(text);
await new Promise((resolve) => setTimeout(resolve, 150));
for (const text of ["CNF G", "CNF GI", "CNF GIG"]) typed.next(text);
const last = await done;

console.log("search box (switchMap):");
const sdu = log.started.filter((s) => s.includes("|SDU|"));
expect(sdu.length > 0, "the first route's search started its sources");
expect(sdu.every((s) => log.aborted.includes(s)), `all ${sdu.length} sources of the abandoned CNF→SDU search were aborted upstream`);
expect(!seen.some((s) => s.query.destination === "SDU" && s.completed), "the abandoned search never completed");
expect(last.completed && last.query.destination === "GIG" && last.offers.size > 0, `the CNF→GIG search completed with ${last.offers.size} offers`);
expect(!log.aborted.some((s) => s.includes("|GIG|")), "no source of the search on screen was aborted");
