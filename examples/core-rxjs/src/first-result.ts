import { hasResults, search } from "@voar/core";
import { createSimulator } from "@voar/testing/simulator";
import { firstValueFrom } from "rxjs";
import { first } from "rxjs/operators";
import { expect, observed } from "./observed-sources.js";
import { daysAhead, queryOf } from "./query.js";

// One source answers in 100 ms, the others take 2 s.
const { sources, log } = observed(createSimulator({ latencyMs: (id) => (id === "gol" ? 100 : 2_000), batches: 1 }).sources);
const query = queryOf({ Origem: "CNF", Destino: "GRU", Ida: daysAhead(20) });

// The first snapshot with any offer, then complete: `first` unsubscribes, which aborts the sources still running.
const firstWithOffers = await firstValueFrom(search(query, sources).pipe(first(hasResults)));

// Unsubscribing interrupts the sources' Effect fibers; their signals fire as the interruption runs, a moment later.
await new Promise((resolve) => setTimeout(resolve, 20));
console.log("first result, then complete:");
expect(firstWithOffers.offers.size > 0 && !firstWithOffers.completed, `the first snapshot with offers (${firstWithOffers.offers.size}) came before the search completed`);
const delivered = firstWithOffers.sources.filter((s) => s.items > 0).map((s) => s.id);
expect(delivered.length === 1 && delivered[0] === "gol", "only the fast source had delivered offers");
const pending = firstWithOffers.sources.filter((s) => s.state === "pending").length;
expect(log.aborted.length === pending && pending > 0, `the ${pending} sources still running were aborted`);
