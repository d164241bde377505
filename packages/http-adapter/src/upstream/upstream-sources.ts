/**
 * Upstream searches as core sources: one source for the whole upstream (every mode, as asked), or the
 * fan-out, one single-airline source per airline, so the engine shows each airline's progress and the
 * fastest airline's flights come first.
 */
import { AIRLINES, airlineById, type SearchQuery, type SearchSource } from "@voar/core";
import type { AuthSession } from "./auth-session.js";
import type { UpstreamContext } from "./upstream-context.js";
import { upstreamSearch } from "./upstream-search.js";
import { protectedTransport, searchBudgets, type SearchBudgets } from "./source-breaker.js";

/** The context one search of source `id` runs with: its requests through the source's breaker and the search's budget. */
const guarded = (ctx: UpstreamContext, id: string, query: SearchQuery, budgets: SearchBudgets | undefined): UpstreamContext => {
  const transport = protectedTransport(ctx.protection, ctx.transport, id, query, budgets);
  return transport === ctx.transport ? ctx : { ...ctx, transport };
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
}

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/**
 * One single-airline source per airline. Each serves Mode A searches (as one part of them) and the
 * single-airline searches of its airline; it asks the upstream for that airline alone (`Companhia` = its id).
 */
export const fanOutSources = (ctx: UpstreamContext, identity: FanOutIdentity = {}): UpstreamSource[] => {
  const airlines = identity.airlines ?? AIRLINES.map((a) => a.id);
  // One budget per search for all the airlines: the engine hands each of them the same query object.
  const budgets = searchBudgets(ctx.protection, airlines.length, ctx.polling.maxDurationMs);
  return airlines.map((airlineId) => {
    const airline = airlineById(airlineId);
    if (!airline) throw new RangeError(`Companhia ${airlineId} is not a single-airline id (decisions.md)`);
    const id = `${identity.idPrefix ?? "upstream:"}${slug(airline.name)}`;
    const serves = (q: SearchQuery) => q.mode.kind === "all-airlines" || (q.mode.kind === "single-airline" && q.mode.airlineId === airlineId);
    return {
      id,
      name: airline.name,
      kind: "airline",
      airlineId,
      serves,
      session: ctx.session,
      search: (query: SearchQuery, signal: AbortSignal) =>
        upstreamSearch(guarded(ctx, id, query, budgets), id, { ...query, mode: { kind: "single-airline", airlineId } }, signal),
      close: () => ctx.transport.close(),
    };
  });
};
