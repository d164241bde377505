/**
 * Upstream searches as core sources: one source for the whole upstream (every mode, as asked), or one source
 * per airline, so the engine shows each airline's progress and the fastest airline's flights come first:
 * following one all-airlines upstream search (the default) or one single-airline upstream search each.
 */
import { context } from "@opentelemetry/api";
import { AIRLINES, airlineById, queryKey, type SearchQuery, type SearchSource } from "@voar/core";
import type { AuthSession } from "./auth-session.js";
import { SharedSearch } from "./shared-search.js";
import type { UpstreamContext } from "./upstream-context.js";
import { upstreamSearch } from "./upstream-search.js";
import { protectedTransport, searchBudgets, type SearchBudgets } from "./source-breaker.js";

/** The context one search of source `id` runs with: its requests through the source's breaker and the search's budget. */
const guarded = (ctx: UpstreamContext, id: string, query: SearchQuery, budgets: SearchBudgets | undefined): UpstreamContext => {
  const transport = protectedTransport(ctx.protection, ctx.transport, id, query, budgets);
  if (transport === ctx.transport) return ctx;
  // A login the search needs is one of its requests too.
  const charge = budgets && (() => budgets.charge(query, Date.now()));
  return { ...ctx, transport, charge };
};

/** A source backed by an upstream; `close()` releases the connections its transport owns. */
export interface UpstreamSource extends SearchSource {
  /** The session, shared by the fan-out's sources (`session.logins` counts logins). */
  readonly session: AuthSession;
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
  const budgets = searchBudgets(ctx.protection, 1, ctx.polling.maxDurationMs);
  return {
    id,
    name: identity.name ?? "Fornecedor",
    kind: "airline",
    serves: () => true,
    session: ctx.session,
    search: (query, signal) => upstreamSearch(guarded(ctx, id, query, budgets), id, query, signal),
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
   * `"learned"` (default): polls aimed at the time each airline's searches usually complete, learned as they
   * run, on top of the backoff. `"backoff"`: the backoff and the upstream's hints alone.
   */
  readonly pacing?: "learned" | "backoff" | undefined;
  /**
   * How a Mode A (all-airlines) search asks the upstream. `"one-search"` (default): one all-airlines upstream
   * search, followed by every airline's source (each done when the upstream's `ActiveProviders` no longer lists
   * it), polled when the next airline is expected to have answered: about the requests of a plain client polling
   * every 10 s (at most 1.5x once the airlines' times are learned, 2x on a cold start), the first result within a
   * second of the fastest airline's answer. `"fan-out"`: one single-airline upstream search per airline, for an
   * upstream whose all-airlines search shows nothing until its slowest airline has answered; it costs at least two
   * requests per airline (about 2.3x the plain client's requests with learned pacing, 6x cold, for 7 airlines).
   * A single-airline search always asks that airline alone.
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
  const learn = identity.pacing !== "backoff";
  const oneSearch = identity.strategy !== "fan-out";
  const prefix = identity.idPrefix ?? "upstream:";
  const airlines = identity.airlines ?? AIRLINES.map((a) => a.id);
  // One budget per search for all the airlines: the engine hands each of them the same query object.
  const budgets = searchBudgets(ctx.protection, airlines.length, ctx.polling.maxDurationMs);
  const idOf = (airlineId: number): string => {
    const airline = airlineById(airlineId);
    if (!airline) throw new RangeError(`Companhia ${airlineId} is not a single-airline id (decisions.md)`);
    return `${prefix}${slug(airline.name)}`;
  };
  const sourceIdOf = new Map(airlines.map((a) => [a, idOf(a)]));
  // The all-airlines upstream searches running, by query: each followed by the airline sources of its searches.
  const runs = new Map<string, SharedSearch>();
  const runId = `${prefix}all`;
  const follow = (query: SearchQuery, airlineId: number, signal: AbortSignal) => {
    const key = queryKey(query);
    let run = runs.get(key);
    if (!run) {
      const started: SharedSearch = new SharedSearch({
        ctx: guarded(ctx, runId, query, budgets),
        runId,
        query,
        sourceIdOf,
        trace: context.active(), // the engine's source attempt that starts it
        onEnd: () => void (runs.get(key) === started && runs.delete(key)),
      });
      runs.set(key, (run = started));
    }
    return run.follow(airlineId, signal);
  };
  return airlines.map((airlineId) => {
    const id = sourceIdOf.get(airlineId)!;
    const serves = (q: SearchQuery) => q.mode.kind === "all-airlines" || (q.mode.kind === "single-airline" && q.mode.airlineId === airlineId);
    return {
      id,
      name: airlineById(airlineId)!.name,
      kind: "airline",
      airlineId,
      serves,
      session: ctx.session,
      search: (query: SearchQuery, signal: AbortSignal) =>
        oneSearch && query.mode.kind === "all-airlines"
          ? follow(query, airlineId, signal)
          : upstreamSearch(guarded(ctx, id, query, budgets), id, { ...query, mode: { kind: "single-airline", airlineId } }, signal, learn),
      close: () => ctx.transport.close(),
    };
  });
};
