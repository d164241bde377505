/**
 * The answer cache: sources whose complete answers are kept for a freshness window and shared by every
 * tenant of the deployment, with stale-while-revalidate. Tenant rules (the Pagante switch) are the engine's,
 * applied per search after the sources: the cache holds what the upstream answered, never a tenant's view
 * of it, and its key names no tenant.
 *
 * A source's answer is cached per (upstream account, source, query without paging), the source standing
 * for its airline: a single-airline source's answer to a Mode A search and to a search of its airline alone
 * are one entry. When a search asks a source for a query:
 * - fresh answer (younger than `freshMs`): its offers at once, and the source is done (`hit`);
 * - stale answer (younger than `freshMs + staleMs`): its offers at once, then the offers of one refresh
 *   shared by every search asking meanwhile, which runs to its end even if they all leave (`stale`);
 * - none (`miss`): the source runs, one run per key shared by every search asking meanwhile; its complete
 *   answer is cached. A run that fails is not cached; the engine retries as it would the source.
 * Offers without freshness members get the time they came (`seenAt`) and `validUntil` `freshMs + staleMs`
 * later: an offer is current for as long as the cache may serve it. An answer any of whose offers stops being
 * current within `MIN_VALIDITY_LEFT_MS` (half their life, if shorter: see `usableUntil`, the margin a search to
 * join and a calendar's day need too) is not served at all (a miss): no search shows a price past its `validUntil`.
 */
import { context, type Context } from "@opentelemetry/api";
import { queryKey, type Offer, type SearchQuery, type SearchSource } from "@voar/core";
import type { Clock } from "../clock.js";
import type { Logger } from "../logging/logger.js";
import { usableUntil } from "../search/offer-validity.js";
import { AnswerFlight } from "./answer-flight.js";
import type { AnswerStore } from "./answer-store.js";

/** What a lookup found: a fresh answer, a stale one (served and refreshed), or none. */
export type CacheLookup = "hit" | "stale" | "miss";

/** Options of {@link createAnswerCache}. */
export interface AnswerCacheOptions {
  readonly store: AnswerStore;
  readonly clock: Clock;
  /** How long an answer is served as it is. */
  readonly freshMs: number;
  /** How long after that it is still served at once, while one refresh runs. 0: never. */
  readonly staleMs: number;
  /** The upstream account the answers belong to (an identity, never a secret): part of every key. */
  readonly account: string;
  /** Called on every lookup, e.g. to count hits and misses in a metric. */
  readonly onCacheLookup?: ((outcome: CacheLookup, sourceId: string) => void) | undefined;
  readonly logger?: Logger | undefined;
}

/** The answer cache of a deployment's sources. */
export interface AnswerCache {
  /** The sources, each answering through the cache (same ids, names and rules of what they serve). */
  wrap(sources: readonly SearchSource[]): SearchSource[];
  /** Runs in flight, refreshes included (for tests and benchmarks). */
  readonly inFlight: () => number;
  /** Stops every run in flight (at shutdown, before the sources' connections close). */
  close(): void;
}

/** The query a source's answer is cached under: a single-airline source's answer is its airline's, whatever the search's mode. */
const cachedQuery = (source: SearchSource, query: SearchQuery): SearchQuery =>
  source.kind === "airline" && source.airlineId !== undefined ? { ...query, mode: { kind: "single-airline", airlineId: source.airlineId } } : query;

/**
 * Builds the answer cache.
 *
 * @example
 * const cache = createAnswerCache({ store: createMemoryAnswerStore({ maxEntries: 2_000, clock }), clock, freshMs: 300_000, staleMs: 600_000, account: "upstream.example/agencia" });
 * const app = createApp({ config, sources: cache.wrap(upstream.sources) });
 */
export const createAnswerCache = (o: AnswerCacheOptions): AnswerCache => {
  const flights = new Map<string, AnswerFlight>();

  const stamp = (batch: readonly Offer[], now: number): readonly Offer[] =>
    batch.some((x) => x.seenAt === undefined) ? batch.map((x) => (x.seenAt !== undefined ? x : { ...x, seenAt: now, validUntil: x.validUntil ?? now + o.freshMs + o.staleMs })) : batch;

  // A run belongs to the trace of the search that started it (its source attempt): the source's first step
  // runs in that context, so the run's upstream requests are spans of that attempt and carry its traceparent.
  const fly = (key: string, source: SearchSource, query: SearchQuery, background: boolean, trace: Context): AnswerFlight => {
    const flight = new AnswerFlight(background, trace);
    flights.set(key, flight);
    void context.with(trace, async () => {
      const latest = new Map<string, Offer>();
      try {
        for await (const batch of source.search(query, flight.controller.signal)) {
          const offers = stamp(batch, o.clock.now());
          for (const x of offers) latest.set(x.id, x);
          flight.batches.push(offers);
          flight.changed();
        }
        flight.state = "done";
        flight.changed();
        await o.store.set(key, { offers: [...latest.values()], storedAt: o.clock.now() }, o.freshMs + o.staleMs);
      } catch (e) {
        if (flight.state === "running") {
          flight.state = "failed";
          flight.error = e;
          flight.changed();
        } else {
          // The answer is complete but the store did not take it: the next search asks the source again.
          o.logger?.log({ level: "info", msg: "cache.store_failed", sourceId: source.id, error: e instanceof Error ? e.message : String(e) });
        }
      } finally {
        if (flights.get(key) === flight) flights.delete(key);
      }
    });
    return flight;
  };

  const lookup = async (key: string, sourceId: string) => {
    try {
      return await o.store.get(key);
    } catch (e) {
      o.logger?.log({ level: "info", msg: "cache.lookup_failed", sourceId, error: e instanceof Error ? e.message : String(e) });
      return undefined; // an unreachable store is a miss: the source answers
    }
  };

  const cachedSearch = (source: SearchSource) =>
    async function* (query: SearchQuery, signal: AbortSignal): AsyncGenerator<readonly Offer[]> {
      const trace = context.active(); // read before the first await: the engine's source attempt
      const asked = cachedQuery(source, query);
      const key = `${o.account}\u0000${source.id}\u0000${queryKey(asked)}`;
      const running = flights.get(key);
      const found = running ? undefined : await lookup(key, source.id);
      // An answer is served only while its offers stay current through a search (never past their `validUntil`):
      // each with a minute left, or half its life if that is shorter.
      const cached = found && o.clock.now() <= (usableUntil(found.offers) ?? Infinity) ? found : undefined;
      const age = cached ? o.clock.now() - cached.storedAt : Infinity;
      if (cached && age < o.freshMs) {
        o.onCacheLookup?.("hit", source.id);
        yield cached.offers;
        return;
      }
      const stale = cached !== undefined && age < o.freshMs + o.staleMs;
      o.onCacheLookup?.(stale ? "stale" : "miss", source.id);
      // Another search may have started the run while this one looked up the store. A refresh starts
      // before the stale offers go out: the search may stop right after them.
      const joined = flights.get(key);
      // A search that joins a run already in flight has no upstream span of its own: its span links to the run's.
      joined?.joinedFrom(trace);
      const flight = joined ?? fly(key, source, query, stale, trace);
      if (stale) yield cached.offers;
      yield* flight.follow(signal);
    };

  return {
    wrap: (sources) => sources.map((s): SearchSource => ({ ...s, search: cachedSearch(s) })),
    inFlight: () => flights.size,
    close: () => {
      for (const f of flights.values()) f.controller.abort(new DOMException("the service is stopping", "AbortError"));
      flights.clear();
    },
  };
};
