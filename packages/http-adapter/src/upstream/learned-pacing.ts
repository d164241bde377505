/**
 * What the adapter learns of the upstream as its searches run, to pace the next ones: each airline's time (as the
 * intervals polls saw, see `TimeModel`), per route, per market (the countries of the route's two ends) and overall,
 * and whether the airline sells on each route. It lives in a {@link PacingStore}: this process's memory by default,
 * or one shared by the instances (Redis), which a search reads before its first poll, so a new instance's first
 * search of a route another instance learned costs the learned requests.
 *
 * Whether an airline sells on a route: as its last search of the route said; on a route never searched, an airline
 * that brought nothing on nearly every route of the market searched lately (at least {@link MARKET_SEEN} routes, offers
 * on fewer than {@link MARKET_SHARE} of them) is taken as selling nothing there. That only spares the aimed polls: the
 * plain client's grid is polled for it all the same, so an airline that starts selling shows no later than there.
 */
import type { PacingEntry, PacingStore } from "./pacing-store.js";
import { TimeModel, type TimeObservation } from "./time-model.js";

/** Where a search goes: its route (`GRU-SSA`, whatever the date) and market (`BR>BR`, when both countries are known). */
export interface Place {
  readonly route: string;
  readonly market?: string | undefined;
}

/** Routes of a market an airline must have been searched on before the market speaks for a route not seen yet. */
export const MARKET_SEEN = 3;
/** Below this share of a market's routes with offers, an airline is taken as selling nothing on a route of it not seen yet. */
export const MARKET_SHARE = 0.1;

/** Searches kept per list: overall, per market, per route; routes remembered in a market's list. */
const KEEP = { all: 32, market: 24, route: 12, marketRoutes: 64 } as const;
/** A route's (or a market's) own times are used from this many searches on; overall ones from the first. */
const OWN_FROM = 6;
const ALL_FROM = 1;
/** An airline is probed at most once in this many of its searches (by this instance). */
const PROBE_EVERY = 8;
/** A list read from the shared store is read again after this long at the soonest. */
const REFRESH_MS = 5_000;
/** Lists held in memory at most (the least recently used dropped first). */
const MAX_LISTS = 50_000;
/** The upstream's answer times: the list's key, its length, and how often one is shared at most. */
const ANSWERS = { key: "a:answers", max: 16, everyMs: 2_000 } as const;

const timeKeys = (sourceId: string, place: Place) => ({
  all: `t:${sourceId}`,
  market: place.market === undefined ? undefined : `t:${sourceId}:m:${place.market}`,
  route: `t:${sourceId}:r:${place.route}`,
});
const yieldKeys = (sourceId: string, place: Place) => ({
  route: `y:${sourceId}:r:${place.route}`,
  market: place.market === undefined ? undefined : `y:${sourceId}:m:${place.market}`,
});

const encode = (o: TimeObservation): string => `${Math.round(o.after)}|${o.by === undefined ? "" : Math.round(o.by)}`;
const decode = (text: string): TimeObservation | undefined => {
  const [after, by] = text.split("|");
  const a = Number(after);
  const b = by === undefined || by === "" ? undefined : Number(by);
  return Number.isFinite(a) && (b === undefined || Number.isFinite(b)) ? { after: a, by: b } : undefined;
};

/** Options of {@link LearnedPacing}. */
export interface LearnedPacingOptions {
  /** The grid of the time models (a quarter of the polling's first step). */
  readonly binMs: number;
  /** The longest time considered (the polling's `maxDurationMs`). */
  readonly horizonMs: number;
  /** Shared by the instances; default: this process only. */
  readonly store?: PacingStore | undefined;
  /** Told when the shared store fails (the adapter goes on with what it holds). */
  readonly onStoreError?: ((error: unknown) => void) | undefined;
  readonly now?: (() => number) | undefined;
}

/** The learned times and yields of one adapter's sources. */
export class LearnedPacing {
  private readonly lists = new Map<string, string[]>();
  private readonly models = new Map<string, TimeModel | undefined>();
  private readonly readAt = new Map<string, number>();
  private readonly shared: PacingStore | undefined;
  private readonly now: () => number;
  private answerSharedAt = -Infinity;
  /** By source: its searches seen since it was last probed. */
  private readonly sinceProbe = new Map<string, number>();

  constructor(private readonly o: LearnedPacingOptions) {
    this.shared = o.store;
    this.now = o.now ?? Date.now;
  }

  /**
   * Reads what the shared store holds of these sources on this place (each list at most every few seconds), so the
   * next plans use what every instance learned. Never rejects: on a failure the adapter goes on with what it holds.
   */
  async refresh(sourceIds: readonly string[], place: Place): Promise<void> {
    if (!this.shared) return;
    const now = this.now();
    const keys = [ANSWERS.key, ...sourceIds.flatMap((id) => [...Object.values(timeKeys(id, place)), ...Object.values(yieldKeys(id, place))])].filter((k): k is string => k !== undefined && now - (this.readAt.get(k) ?? -Infinity) >= REFRESH_MS);
    if (keys.length === 0) return;
    for (const k of keys) this.readAt.set(k, now);
    try {
      const lists = await this.shared.read(keys);
      keys.forEach((k, i) => this.put(k, [...(lists[i] ?? [])]));
    } catch (error) {
      for (const k of keys) this.readAt.delete(k);
      this.o.onStoreError?.(error);
    }
  }

  /**
   * Whether the source may be probed: not probed in the latest searches this instance saw of it (an instance that
   * took its time from the shared store, `known`, sees a few before probing it; one that knows nothing of it may).
   */
  mayProbe(sourceId: string, known: boolean): boolean {
    return (this.sinceProbe.get(sourceId) ?? (known ? 0 : PROBE_EVERY)) >= PROBE_EVERY;
  }

  /** Notes a probe of the source. */
  probed(sourceId: string): void {
    this.sinceProbe.set(sourceId, 0);
  }

  /** Records what a search saw of a source's time on this place. */
  recordTime(sourceId: string, place: Place, observation: TimeObservation): void {
    this.sinceProbe.set(sourceId, (this.sinceProbe.get(sourceId) ?? 0) + 1);
    const k = timeKeys(sourceId, place);
    const value = encode(observation);
    this.push([
      { key: k.all, value, max: KEEP.all },
      ...(k.market === undefined ? [] : [{ key: k.market, value, max: KEEP.market }]),
      { key: k.route, value, max: KEEP.route },
    ]);
  }

  /** The learned time of a source on this place: the route's own, else the market's, else overall; undefined while too few searches. */
  model(sourceId: string, place: Place): TimeModel | undefined {
    const k = timeKeys(sourceId, place);
    for (const [key, from] of [[k.route, OWN_FROM], [k.market, OWN_FROM], [k.all, ALL_FROM]] as const) {
      if (key === undefined) continue;
      const list = this.lists.get(key);
      if (!list || list.length < from) continue;
      if (!this.models.has(key)) {
        const observations = list.map(decode).filter((o): o is TimeObservation => o !== undefined);
        this.models.set(key, observations.length >= from ? new TimeModel(observations, this.o.binMs, this.o.horizonMs) : undefined);
      }
      const model = this.models.get(key);
      if (model) return model;
    }
    return undefined;
  }

  /** Records what a finished search of a source brought on this place. */
  recordYield(sourceId: string, place: Place, offers: number): void {
    const k = yieldKeys(sourceId, place);
    const sold = offers > 0 ? "1" : "0";
    this.push([{ key: k.route, value: sold, max: 1 }, ...(k.market === undefined ? [] : [{ key: k.market, value: `${place.route}=${sold}`, max: KEEP.marketRoutes }])]);
  }

  /** Whether the source is expected to sell on this place: as its last search of the route said, else as its market says. */
  expects(sourceId: string, place: Place): boolean {
    const k = yieldKeys(sourceId, place);
    const last = this.lists.get(k.route)?.[0];
    if (last !== undefined) return last === "1";
    const market = k.market === undefined ? undefined : this.lists.get(k.market);
    if (!market) return true;
    // Each route counts once, as it was last seen.
    const seen = new Map<string, boolean>();
    for (const entry of market) {
      const at = entry.lastIndexOf("=");
      const route = entry.slice(0, at);
      if (!seen.has(route)) seen.set(route, entry.slice(at + 1) === "1");
    }
    const searched = seen.size;
    const withOffers = [...seen.values()].filter(Boolean).length;
    return searched < MARKET_SEEN || withOffers >= MARKET_SHARE * searched;
  }

  /** Records how long the upstream took to answer a search request (shared every few seconds at most). */
  recordAnswer(ms: number): void {
    const now = this.now();
    if (now - this.answerSharedAt < ANSWERS.everyMs) return;
    this.answerSharedAt = now;
    this.push([{ key: ANSWERS.key, value: String(Math.round(ms)), max: ANSWERS.max }]);
  }

  /** Answer times the instances shared, oldest first. */
  answerTimes(): number[] {
    return (this.lists.get(ANSWERS.key) ?? []).map(Number).filter(Number.isFinite).reverse();
  }

  private push(entries: readonly PacingEntry[]): void {
    for (const e of entries) {
      const list = this.lists.get(e.key) ?? [];
      list.unshift(e.value);
      if (list.length > e.max) list.length = e.max;
      this.put(e.key, list);
    }
    this.shared?.push(entries).catch((error: unknown) => this.o.onStoreError?.(error));
  }

  private put(key: string, list: string[]): void {
    this.lists.delete(key);
    this.lists.set(key, list);
    this.models.delete(key);
    if (this.lists.size > MAX_LISTS) {
      const oldest = this.lists.keys().next().value!;
      this.lists.delete(oldest);
      this.models.delete(oldest);
      this.readAt.delete(oldest);
    }
  }
}
