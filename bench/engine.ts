/**
 * Engine benchmark (issue: core). Prints, from one run:
 *  - incremental ingestion (N offers as N/100 batches) against one-shot ingestion (one batch): target <= 1.5x;
 *  - producing page 1 of a large result against page 1 of a 100x smaller one: target <= 3x;
 *  - the same with a filter (one airline, nonstops) and a sort (earliest departure), each on a new version: target <= 3x.
 * The offers make the filter adversarial to a walk of the sort order: each 5-minute departure slot holds a
 * single airline, so G3's first ten nonstops sit behind whole slots of LATAM and Azul groups (hundreds of
 * groups at 50,000 flights, a few at 500).
 */
import { reduce } from "../packages/core/src/engine/reduce.js";
import { initialSnapshot, type SearchSnapshot } from "../packages/core/src/engine/snapshot.js";
import { modeAPage } from "../packages/core/src/views/mode-a-page.js";
import type { ResultView } from "../packages/core/src/query/result-view.js";
import { airports } from "../packages/core/src/airports/index.js";
import type { Offer } from "../packages/core/src/domain/offer.js";
import type { SearchQuery } from "../packages/core/src/query/query.js";
import { flightKey } from "../packages/core/src/domain/itinerary.js";
import { fmt, isQuick, sideBySide, type Figure } from "./lib/measure.js";
import { resolveRelativeDate } from "../packages/core/src/request/relative-date.js";

/** The day the bench searches: a month ahead, so that it never falls in the past. */
const DAY = resolveRelativeDate("+30");

const query: SearchQuery = {
  origin: "CNF",
  destination: "SDU",
  departureDate: DAY,
  passengers: { adults: 1, children: 0, infants: 0 },
  mode: { kind: "all-airlines" },
};
const CARRIERS = [
  { iata: "LA", name: "LATAM", id: 1 },
  { iata: "G3", name: "GOL", id: 2 },
  { iata: "AD", name: "Azul", id: 3 },
];

/** `n` distinct offers; every one a distinct flight at a distinct price, so each makes its own group. */
export const makeOffers = (n: number): Offer[] => {
  const out: Offer[] = [];
  for (let i = 0; i < n; i++) {
    const c = CARRIERS[i % 3]!;
    const minute = ((i * 7) % 216) * 5; // schedules in 5-minute slots, 05:00 to 22:55
    const hh = String(5 + Math.floor(minute / 60)).padStart(2, "0");
    const mm = String(minute % 60).padStart(2, "0");
    const departure = `${DAY}T${hh}:${mm}:00`;
    const arrival = `${DAY}T${String(Number(hh) + 1).padStart(2, "0")}:${mm}:00`;
    const carrier = { iata: c.iata, name: c.name };
    const legs = [{ carrier, operatingCarrier: carrier, flightNumber: 1000 + i, origin: "CNF", destination: "SDU", departure, arrival, durationMinutes: 60, cabin: "Economica" }];
    const itinerary = { direction: "outbound" as const, legs, origin: "CNF", destination: "SDU", departure, arrival, durationMinutes: 60, stops: 0 };
    const total = { amount: 30_000 + i * 3, currency: "BRL" };
    const taxes = { amount: 3_356, currency: "BRL" };
    out.push({
      id: `o${i}`, flightKey: flightKey(itinerary), sourceId: "bench", airlineId: c.id, validatingCarrier: carrier,
      seller: { kind: "airline", id: "bench", name: "Bench", site: "bench.example", url: "https://bench.example" },
      itinerary, fares: [{ type: "ADT", count: 1, base: { amount: total.amount - taxes.amount, currency: "BRL" }, taxes }],
      total, taxes, airlinePrice: { amount: total.amount * 2, currency: "BRL" }, miles: undefined, cabin: "Economica",
      bookingOption: "Tarifa Light", baggage: { checked: 0, checkedText: "", cabinText: "" }, fareToken: `f${i}`, searchToken: "s",
    });
  }
  return out;
};

/**
 * A round trip's offers as airlines sell them: per airline and direction, `flights` flights spread over the day,
 * each at three fares (LIGHT, PLUS, MAX) drawn from twelve price levels, so that fares of different flights meet
 * at one price and combinations at one total, as in real answers.
 */
export const makeRoundTripOffers = (flights: number): Offer[] => {
  const out: Offer[] = [];
  for (const direction of ["outbound", "return"] as const) {
    const [origin, destination, date] = direction === "outbound" ? ["CNF", "SDU", "2026-12-20"] : ["SDU", "CNF", "2026-12-23"];
    for (const c of CARRIERS) {
      for (let f = 0; f < flights; f++) {
        const minute = ((f * 37) % 216) * 5;
        const hh = String(5 + Math.floor(minute / 60)).padStart(2, "0");
        const mm = String(minute % 60).padStart(2, "0");
        const departure = `${date}T${hh}:${mm}:00`;
        const arrival = `${date}T${String(Number(hh) + 1).padStart(2, "0")}:${mm}:00`;
        const carrier = { iata: c.iata, name: c.name };
        const legs = [{ carrier, operatingCarrier: carrier, flightNumber: 1000 + f, origin, destination, departure, arrival, durationMinutes: 60, cabin: "Economica" }];
        const itinerary = { direction, legs, origin, destination, departure, arrival, durationMinutes: 60, stops: 0 };
        for (const [k, family] of ["LIGHT", "PLUS", "MAX"].entries()) {
          const total = { amount: 20_000 + ((f * 5 + k * 4) % 12) * 2_500, currency: "BRL" };
          const taxes = { amount: 3_356, currency: "BRL" };
          const id = `${direction[0]}${c.iata}${f}${family}`;
          out.push({
            id, flightKey: flightKey(itinerary), sourceId: "bench", airlineId: c.id, validatingCarrier: carrier,
            seller: { kind: "airline", id: "bench", name: "Bench", site: "bench.example", url: "https://bench.example" },
            itinerary, fares: [{ type: "ADT", count: 1, base: { amount: total.amount - taxes.amount, currency: "BRL" }, taxes }],
            total, taxes, airlinePrice: { amount: total.amount * 2, currency: "BRL" }, miles: undefined, cabin: "Economica",
            bookingOption: `Tarifa ${family}`, fareFamily: family, baggage: { checked: k, checkedText: "", cabinText: "" }, fareToken: id, searchToken: "s",
          });
        }
      }
    }
  }
  return out;
};

const ingest = (offers: readonly Offer[], batchSize: number, q: SearchQuery = query): SearchSnapshot => {
  let s = initialSnapshot(q, [{ id: "bench", name: "Bench" }]);
  for (let i = 0; i < offers.length; i += batchSize) {
    s = reduce(s, { type: "batch", sourceId: "bench", offers: offers.slice(i, i + batchSize) });
  }
  return s;
};

export interface EngineFigures {
  readonly offers: number;
  readonly batches: number;
  readonly ingestion: { anchor: Figure; subject: Figure; ratio: Figure };
  readonly large: number;
  readonly small: number;
  readonly page: { anchor: Figure; subject: Figure; ratio: Figure };
  readonly freshPage: { anchor: Figure; subject: Figure; ratio: Figure };
  readonly filteredPage: { anchor: Figure; subject: Figure; ratio: Figure };
  /** Offers each way of the round-trip row, and its price groups. */
  readonly roundTrip: { readonly offers: number; readonly groups: number; readonly page: { anchor: Figure; subject: Figure; ratio: Figure } };
}

/** The view of the filtered-page row: one airline's nonstops, earliest departure first. */
export const BENCH_VIEW: ResultView = { filters: { airlines: ["G3"], stops: [0] }, sort: "departure" };

/** New snapshot versions a run of the filtered-page row pages through. */
export const FRESH_VERSIONS = 100;

export const runEngineBench = async (quick = isQuick()): Promise<EngineFigures> => {
  const runs = quick ? 5 : 7;
  const filteredRuns = quick ? 7 : 15;
  const n = quick ? 10_000 : 100_000;
  const batches = n / 100;
  const offers = makeOffers(n);
  const ingestion = await sideBySide(runs, () => offers, (o) => ingest(o, o.length), (o) => ingest(o, 100));

  const large = quick ? 5_000 : 50_000;
  const small = large / 100;
  const bigSnap = ingest(makeOffers(large), 1_000);
  const smallSnap = ingest(makeOffers(small), 1_000);
  const reps = 200;
  const page = await sideBySide(
    runs,
    () => undefined,
    () => { for (let i = 0; i < reps; i++) modeAPage(smallSnap, 1, 10, airports); },
    () => { for (let i = 0; i < reps; i++) modeAPage(bigSnap, 1, 10, airports); },
  );
  // A new version each time: one more offer folded in, so meta is computed afresh for that version.
  const extra = makeOffers(large + 200).slice(large);
  let k = 0;
  const bump = (snap: SearchSnapshot) => reduce(snap, { type: "batch", sourceId: "bench", offers: [extra[k++ % extra.length]!] });
  const freshPage = await sideBySide(
    runs,
    () => ({ small: Array.from({ length: 50 }, () => bump(smallSnap)), big: Array.from({ length: 50 }, () => bump(bigSnap)) }),
    (s) => { for (const snap of s.small) modeAPage(snap, 1, 10, airports); },
    (s) => { for (const snap of s.big) modeAPage(snap, 1, 10, airports); },
  );
  // The same view on both sizes, FRESH_VERSIONS new versions per run, anchor and subject alternating.
  const filteredPage = await sideBySide(
    filteredRuns,
    () => ({ small: Array.from({ length: FRESH_VERSIONS }, () => bump(smallSnap)), big: Array.from({ length: FRESH_VERSIONS }, () => bump(bigSnap)) }),
    (s) => { for (const snap of s.small) modeAPage(snap, 1, 10, airports, BENCH_VIEW); },
    (s) => { for (const snap of s.big) modeAPage(snap, 1, 10, airports, BENCH_VIEW); },
  );
  // A round trip against a one-way search of the same outbound offers, page 1 of a new version each time:
  // what pairing every fare each way costs a poll.
  const trip = makeRoundTripOffers(quick ? 40 : 100);
  const outbound = trip.filter((o) => o.itinerary.direction === "outbound");
  const roundTripQuery: SearchQuery = { ...query, returnDate: "2026-12-23" };
  const oneWaySnap = ingest(outbound, 1_000);
  const tripSnap = ingest(trip, 1_000, roundTripQuery);
  const again = (snap: SearchSnapshot, o: Offer) => reduce(snap, { type: "batch", sourceId: "bench", offers: [{ ...o, id: `${o.id}+`, total: { ...o.total, amount: o.total.amount + 1 } }] });
  const roundTripPage = await sideBySide(
    runs,
    () => ({ one: outbound.slice(0, 20).map((o) => again(oneWaySnap, o)), two: outbound.slice(0, 20).map((o) => again(tripSnap, o)) }),
    (s) => { for (const snap of s.one) modeAPage(snap, 1, 10, airports); },
    (s) => { for (const snap of s.two) modeAPage(snap, 1, 10, airports); },
  );
  const groups = modeAPage(tripSnap, 1, 10, airports).pagination.totalItems;
  return { offers: n, batches, ingestion, large, small, page, freshPage, filteredPage, roundTrip: { offers: outbound.length, groups, page: roundTripPage } };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = await runEngineBench();
  console.log(`ingest ${f.offers} offers, one batch:        ${fmt(f.ingestion.anchor)}`);
  console.log(`ingest ${f.offers} offers, ${f.batches} batches:  ${fmt(f.ingestion.subject)}`);
  console.log(`  ratio incremental/one-shot: ${fmt(f.ingestion.ratio, "x")}  (target <= 1.5x)`);
  console.log(`page 1 of ${f.small} flights (x200):   ${fmt(f.page.anchor)}`);
  console.log(`page 1 of ${f.large} flights (x200): ${fmt(f.page.subject)}`);
  console.log(`  ratio large/small: ${fmt(f.page.ratio, "x")}  (target <= 3x)`);
  console.log(`page 1 of ${f.small} flights, filter + sort, new version (x${FRESH_VERSIONS}):   ${fmt(f.filteredPage.anchor)}`);
  console.log(`page 1 of ${f.large} flights, filter + sort, new version (x${FRESH_VERSIONS}): ${fmt(f.filteredPage.subject)}`);
  console.log(`  ratio large/small: ${fmt(f.filteredPage.ratio, "x")}  (target <= 3x)`);
  console.log(`page 1, new version, one way of ${f.roundTrip.offers} offers (x20): ${fmt(f.roundTrip.page.anchor)}`);
  console.log(`page 1, new version, round trip of ${f.roundTrip.offers} offers each way, ${f.roundTrip.groups} groups (x20): ${fmt(f.roundTrip.page.subject)}`);
  console.log(`  ratio round trip/one way: ${fmt(f.roundTrip.page.ratio, "x")}  (info)`);
}
