/**
 * Upstream searches as core sources: one source for the whole upstream (every mode, as asked), or one source
 * per airline, so the engine shows each airline's progress and the fastest airline's flights come first:
 * following one all-airlines upstream search (the default) or one single-airline upstream search each.
 */
import { context, trace } from "@opentelemetry/api";
import { AIRLINES, airlineById, queryKey, type Offer, type SearchQuery, type SearchSource } from "@voar/core";
import type { AuthSession } from "./auth-session.js";
import type { Place } from "./learned-pacing.js";
import { companhiaOf } from "./provider-names.js";
import type { UpstreamContext } from "./upstream-context.js";
import type { PaceState } from "./upstream-pace.js";
import { UpstreamRun, WHOLE } from "./upstream-run.js";
import { protectedTransport, searchBudgets, type SearchBudgets } from "./source-breaker.js";

/** The context one search of source `id` runs with: its requests through the source's breaker and the search's budget, counted under `id`. */
const guarded = (ctx: UpstreamContext, id: string, query: SearchQuery, budgets: SearchBudgets | undefined): UpstreamContext => {
  const transport = protectedTransport(ctx.protection, ctx.transport, id, query, budgets);
  // Its requests are counted under the source (or run) id; a login the search needs is one of its requests too.
  if (transport === ctx.transport) return { ...ctx, sourceId: id };
  const charge = budgets && (() => budgets.charge(query, Date.now()));
  return { ...ctx, transport, charge, sourceId: id };
};

/** The route and market of a query: what its learned times and yields are kept for. */
const placeOf = (ctx: UpstreamContext, query: SearchQuery): Place => {
  const from = ctx.airports.get(query.origin)?.country;
  const to = ctx.airports.get(query.destination)?.country;
  return { route: `${query.origin}-${query.destination}`, market: from && to ? `${from}>${to}` : undefined };
};

/** The upstream searches an adapter runs, by run id and query: a search asked again while it runs follows the same one. */
class Runs {
  private readonly running = new Map<string, UpstreamRun>();

  constructor(
    private readonly ctx: UpstreamContext,
    private readonly budgets: SearchBudgets | undefined,
    private readonly pacing: "learned" | "backoff",
  ) {}

  /**
   * The run of `query` under `runId`, started when none runs. `search` is the query object the engine handed the
   * source (the search's budget is kept with it), when the upstream is asked another (a single airline's).
   */
  of(runId: string, query: SearchQuery, followers: ReadonlyMap<number, string>, ownerOf: (offer: Offer) => number | undefined, search: SearchQuery = query): UpstreamRun {
    const key = `${runId}|${queryKey(query)}`;
    let run = this.running.get(key);
    if (!run) {
      const started: UpstreamRun = new UpstreamRun({
        ctx: guarded(this.ctx, runId, search, this.budgets),
        runId,
        query,
        followers,
        ownerOf,
        place: placeOf(this.ctx, query),
        pacing: this.pacing,
        trace: context.active(), // the engine's source attempt that starts it
        onEnd: () => void (this.running.get(key) === started && this.running.delete(key)),
      });
      this.running.set(key, (run = started));
    } else {
      // A search joining the run in flight has no upstream span of its own: its attempt's span links to the run's.
      const theirs = trace.getSpanContext(run.trace);
      const span = trace.getActiveSpan();
      if (theirs && span && span.spanContext().spanId !== theirs.spanId) span.addLink({ context: theirs, attributes: { "voar.link": "shared-upstream-search" } });
    }
    return run;
  }

  /** While the run of `query` under `runId` waits for an answer, how long until it is expected (see `SearchSource.answerDueMs`). */
  answerDueMs(runId: string, query: SearchQuery): number | undefined {
    return this.running.get(`${runId}|${queryKey(query)}`)?.answerDueMs();
  }
}

/** A source backed by an upstream; `close()` releases the connections its transport owns. */
export interface UpstreamSource extends SearchSource {
  /** The session, shared by the fan-out's sources (`session.logins` counts logins). */
  readonly session: AuthSession;
  /** How long the upstream's answers take lately, and whether that is slower than the plain client's pace. */
  pace(): PaceState;
  close(): Promise<void>;
}

/** Identity of the single upstream source. */
export interface UpstreamSourceIdentity {
  /** Default `upstream`. */
  readonly id?: string | undefined;
  /** Default `Fornecedor`. */
  readonly name?: string | undefined;
}

/** The single source: it serves every query, sending its `Companhia` as asked. */
export const upstreamSource = (ctx: UpstreamContext, identity: UpstreamSourceIdentity = {}): UpstreamSource => {
  const id = identity.id ?? "upstream";
  const runs = new Runs(ctx, searchBudgets(ctx.protection, 1, ctx.polling.maxDurationMs), "learned");
  const whole = new Map([[WHOLE, id]]);
  return {
    id,
    name: identity.name ?? "Fornecedor",
    kind: "airline",
    serves: () => true,
    session: ctx.session,
    pace: () => ctx.pace.state(),
    search: (query, signal) => runs.of(id, query, whole, () => WHOLE).follow(WHOLE, signal),
    answerDueMs: (query) => runs.answerDueMs(id, query),
    close: () => ctx.transport.close(),
  };
};

/** Options of the fan-out. */
export interface FanOutIdentity {
  /**
   * Companhia ids, one source each. Default: every single-airline id of core's `AIRLINES`: the airlines of
   * decisions.md (1, 2, 3, 11, 13, 22, 26), Livelo (34, its own points programme) and Interline (1200).
   */
  readonly airlines?: readonly number[] | undefined;
  /** Prefix of the source ids: `<prefix><airline slug>`. Default `upstream:`. */
  readonly idPrefix?: string | undefined;
  /**
   * `"learned"` (default): polls on the plain client's 10 s grid, and aimed between its ticks where each airline's
   * learned time says its offers are likely to come, within the adapter's budget. `"backoff"`: the backoff and the
   * upstream's hints alone (no learning used).
   */
  readonly pacing?: "learned" | "backoff" | undefined;
  /**
   * How a Mode A (all-airlines) search asks the upstream. `"one-search"` (default): one all-airlines upstream
   * search, followed by every airline's source (each done when the upstream's `ActiveProviders` no longer lists
   * it), polled on the plain client's 10 s grid and aimed where the awaited airlines' learned times put their
   * offers: about the requests of a plain client polling every 10 s over a run, never more than twice on a search.
   * `"fan-out"`: one single-airline upstream search per airline, for an upstream whose all-airlines search shows
   * nothing until its slowest airline has answered; each airline's search is paced the same way, so it costs about
   * one plain client's requests per airline. A single-airline search always asks that airline alone.
   */
  readonly strategy?: "one-search" | "fan-out" | undefined;
}

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/**
 * One source per airline. Each serves Mode A searches (as one part of them) and the single-airline searches
 * of its airline. In Mode A they follow one all-airlines upstream search together (`strategy: "one-search"`,
 * the default) or each asks the upstream for its airline alone (`"fan-out"`); a single-airline search asks
 * that airline alone. Polls are aimed at the time each airline usually answers (learned as searches run), so
 * the first result comes from the fastest airline either way.
 */
export const fanOutSources = (ctx: UpstreamContext, identity: FanOutIdentity = {}): UpstreamSource[] => {
  const oneSearch = identity.strategy !== "fan-out";
  const prefix = identity.idPrefix ?? "upstream:";
  const airlines = identity.airlines ?? AIRLINES.map((a) => a.id);
  // One budget per search for all the airlines: the engine hands each of them the same query object.
  const runs = new Runs(ctx, searchBudgets(ctx.protection, airlines.length, ctx.polling.maxDurationMs), identity.pacing ?? "learned");
  const idOf = (airlineId: number): string => {
    const airline = airlineById(airlineId);
    if (!airline) throw new RangeError(`Companhia ${airlineId} is not a single-airline id (decisions.md)`);
    return `${prefix}${slug(airline.name)}`;
  };
  const sourceIdOf = new Map(airlines.map((a) => [a, idOf(a)]));
  // The all-airlines upstream search is followed by the airline sources of its searches.
  const runId = `${prefix}all`;
  return airlines.map((airlineId) => {
    const id = sourceIdOf.get(airlineId)!;
    const whole = new Map([[WHOLE, id]]);
    const shared = (query: SearchQuery) => oneSearch && query.mode.kind === "all-airlines";
    const single = (query: SearchQuery): SearchQuery => ({ ...query, mode: { kind: "single-airline", airlineId } });
    const serves = (q: SearchQuery) => q.mode.kind === "all-airlines" || (q.mode.kind === "single-airline" && q.mode.airlineId === airlineId);
    return {
      id,
      name: airlineById(airlineId)!.name,
      kind: "airline",
      airlineId,
      serves,
      session: ctx.session,
      pace: () => ctx.pace.state(),
      search: (query: SearchQuery, signal: AbortSignal) =>
        shared(query) ? runs.of(runId, query, sourceIdOf, companhiaOf).follow(airlineId, signal) : runs.of(id, single(query), whole, () => WHOLE, query).follow(WHOLE, signal),
      answerDueMs: (query: SearchQuery) => (shared(query) ? runs.answerDueMs(runId, query) : runs.answerDueMs(id, single(query))),
      close: () => ctx.transport.close(),
    };
  });
};
