/**
 * One all-airlines upstream search (`Companhia: -1`) followed by the airline sources of a Mode A search: the
 * "one search" strategy. The upstream answers each poll with everything found so far and lists the airlines
 * still searching (`ActiveProviders`), so one upstream search shows each airline's flights and progress as
 * the fan-out's one search per airline does, for about the requests of a plain client. Each airline source
 * follows the run: it gets its airline's offers as they come and is done when its airline has left the
 * list (or the search completed).
 *
 * Polls are aimed at the time the next awaited airline is expected to have answered (learned per airline,
 * `CompletionTimes`), on the backoff while an awaited airline's time is unknown. While the run rests by
 * choice, its followers tell the engine they are alive (empty batches), so the engine's inactivity timeout
 * only ever measures the upstream's own silence. The run stops when no source follows it any more.
 */
import type { Context } from "@opentelemetry/api";
import { MalformedPayload, SourceTimeout, queryKey, retriesWithinSearch, toSourceError, upstreamFailure, type Offer, type SearchQuery } from "@voar/core";
import { rest } from "../internal/rest.js";
import { AnswerReader } from "./answer-reader.js";
import { consultar, type ConsultarResult } from "./consultar.js";
import { OfferChanges } from "./offer-changes.js";
import { answeredFromCache, withFreshness } from "./offer-freshness.js";
import { stableOfferIds } from "./offer-identity.js";
import { pollDelay } from "./poll-pacing.js";
import { activeAirlines, companhiaOf } from "./provider-names.js";
import { readPages, pollIdOf, pagesOf } from "./answer-pages.js";
import { sharedPollDelay } from "./shared-pacing.js";
import { LEASE_TTL_MS, type UpstreamContext } from "./upstream-context.js";
import { pagingOf, searchRequestBody } from "./wire-request.js";

/** How long, from its first answer, a search with no offer yet is polled eagerly: five of the backoff's first steps (5 s by default). */
const EAGER_STEPS = 5;
/**
 * The eager polls' interval: half the first step (500 ms by default), unless the upstream gives its pace. The first
 * airline's flights then show within half a second of its answer, plus the request's own time: within the second the
 * first-result promise allows, where a whole step (1 s) and a real upstream's round trip did not fit in it.
 */
const EAGER_STEP = 0.5;

/** What a {@link SharedSearch} runs with. */
export interface SharedSearchOptions {
  /** The context of the run's requests: the run's breaker and the first search's budget on its transport. */
  readonly ctx: UpstreamContext;
  /** The run's own id (its breaker, its held lease): `upstream:all`. */
  readonly runId: string;
  /** The all-airlines query. */
  readonly query: SearchQuery;
  /** The source id of each airline followed (`upstream:latam`...), whose learned time paces the polls. */
  readonly sourceIdOf: ReadonlyMap<number, string>;
  /** The trace context of the source attempt that started the run: its requests are spans of it. */
  readonly trace: Context;
  /** Called once when the run ends, however it ends. */
  readonly onEnd: () => void;
}

/** A run of an all-airlines upstream search, shared by the airline sources following it. */
export class SharedSearch {
  private readonly controller = new AbortController();
  /** The offers of each airline as they came, batch by batch. */
  private readonly batches = new Map<number, Offer[][]>();
  private readonly done = new Set<number>();
  private readonly following = new Map<number, number>();
  private state: "idle" | "running" | "complete" | "failed" | "stopped" = "idle";
  private error: unknown;
  /** Grows at every step of the run (a request out, an answer, a beat of a rest): each step tells followers the run is alive. */
  private ticks = 0;
  private wakers: (() => void)[] = [];
  /** Offers of airlines nobody follows (not among the sources), left out. */
  unattributed = 0;

  /** The query's route (origin and destination, whatever the date) and market (the countries of its ends, when both are known). */
  private readonly place: { readonly route: string; readonly market: string | undefined };

  constructor(private readonly o: SharedSearchOptions) {
    const from = o.ctx.airports.get(o.query.origin)?.country;
    const to = o.ctx.airports.get(o.query.destination)?.country;
    this.place = { route: `${o.query.origin}-${o.query.destination}`, market: from && to ? `${from}>${to}` : undefined };
  }

  /** The offers of `airline` from the first, then as they come, until its airline is done; throws if the run fails. */
  async *follow(airline: number, signal: AbortSignal): AsyncGenerator<readonly Offer[]> {
    this.following.set(airline, (this.following.get(airline) ?? 0) + 1);
    if (this.state === "idle") this.start();
    try {
      for (let sent = 0, tick = this.ticks; ; ) {
        const mine = this.batches.get(airline) ?? [];
        if (sent < mine.length) {
          const out = mine.slice(sent).flat();
          sent = mine.length;
          tick = this.ticks;
          yield out;
        } else if (this.done.has(airline)) return;
        else if (this.state === "failed") throw this.error;
        else if (this.state !== "running") throw new SourceTimeout({ afterMs: 0 });
        else if (tick !== this.ticks) {
          tick = this.ticks;
          yield [];
        } else await this.next(signal);
      }
    } finally {
      this.following.set(airline, (this.following.get(airline) ?? 1) - 1);
      if (this.state === "running" && ![...this.following.values()].some((n) => n > 0)) this.controller.abort(new DOMException("no search follows this upstream search any more", "AbortError"));
    }
  }

  /** The airlines a follower still waits for. */
  private awaited(): number[] {
    return [...this.following].filter(([a, n]) => n > 0 && !this.done.has(a)).map(([a]) => a);
  }

  private start(): void {
    this.state = "running";
    this.run().then(
      () => (this.state = this.state === "running" ? "complete" : this.state),
      (e: unknown) => {
        if (this.controller.signal.aborted) this.state = "stopped";
        else {
          this.state = "failed";
          this.error = toSourceError(e);
        }
      },
    ).finally(() => {
      this.step();
      this.o.onEnd();
    });
  }

  /** A step of the run: followers wake (and tell the engine the run is alive). */
  private step(): void {
    this.ticks++;
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }

  private async rest(ms: number): Promise<void> {
    for await (const _ of rest(ms, this.controller.signal, this.o.ctx.polling.heartbeatMs)) this.step();
  }

  /** Hands the changed offers to their airlines (one batch each), and marks done the airlines the answer says are. */
  private take(offers: readonly Offer[], finished: Iterable<number>): void {
    const byAirline = new Map<number, Offer[]>();
    for (const offer of offers) {
      const airline = companhiaOf(offer);
      if (!this.o.sourceIdOf.has(airline)) {
        this.unattributed++;
        continue;
      }
      const list = byAirline.get(airline);
      if (list) list.push(offer);
      else byAirline.set(airline, [offer]);
    }
    for (const [airline, batch] of byAirline) {
      const list = this.batches.get(airline);
      if (list) list.push(batch);
      else this.batches.set(airline, [batch]);
    }
    for (const airline of finished) this.done.add(airline);
  }

  private async run(): Promise<void> {
    const { ctx, query, trace } = this.o;
    const p = ctx.polling;
    const signal = this.controller.signal;
    const leaseKey = `${this.o.runId}|${queryKey(query)}`;
    const held = ctx.leases.get(leaseKey);
    let pollId = held && Date.now() - held.at < LEASE_TTL_MS ? held.leaseId : undefined;
    let resuming = pollId !== undefined;
    const readContext = { airports: ctx.airports, sourceId: this.o.runId, query };
    const { route, market } = this.place;
    const reader = new AnswerReader(readContext);
    const changes = new OfferChanges();
    const bodyFor = (page: number) => (pollId ? { LeaseId: pollId, ...pagingOf(query, page, ctx.pageSize) } : searchRequestBody(query, page, ctx.pageSize));
    const started = Date.now();
    let firstAnswerAt: number | undefined;
    let lastPollAt = -1;
    let failures = 0;
    for (let poll = 1; ; poll++) {
      if (poll > p.maxPolls || Date.now() - started > p.maxDurationMs) throw new SourceTimeout({ afterMs: Date.now() - started });
      this.step(); // the request leaves: the engine's timer runs from here
      const sentAt = Date.now();
      let result: ConsultarResult;
      try {
        result = await consultar(ctx, bodyFor(1), signal, trace);
      } catch (error) {
        if (signal.aborted) throw error;
        const tagged = toSourceError(error);
        if (!retriesWithinSearch(tagged) || failures >= p.pollRetries) throw tagged;
        failures++;
        await this.rest(Math.max(tagged._tag === "RateLimited" ? (tagged.retryAfterMs ?? 0) : 0, pollDelay(p, failures, undefined)));
        continue;
      }
      failures = 0;
      const first = firstAnswerAt === undefined;
      firstAnswerAt ??= Date.now();
      const answer = reader.read(result.json);
      if (answer instanceof MalformedPayload) throw answer;
      const refused = upstreamFailure(answer);
      if (refused && resuming && refused._tag === "BusinessError") {
        // The held lease is gone upstream: start the search again with the query.
        ctx.leases.delete(leaseKey);
        pollId = undefined;
        resuming = false;
        continue;
      }
      if (refused) throw refused;
      resuming = false;
      pollId = pollIdOf(result.json, answer) ?? pollId;
      if (pollId) ctx.leases.set(leaseKey, { leaseId: pollId, at: Date.now() });

      const active = answer.completed ? new Set<number>() : activeAirlines(answer.activeProviders);
      const finished = [...this.o.sourceIdOf.keys()].filter((a) => !this.done.has(a) && active !== undefined && !active.has(a));
      // An airline is done with every offer it has: the pages after the first, when the answer has them.
      const rest = finished.length > 0 && pagesOf(result.json) > 1 ? await readPages(ctx, bodyFor, pagesOf(result.json), readContext, signal, trace) : [];
      const fresh = withFreshness(changes.of(stableOfferIds([...answer.offers, ...rest])), Date.now(), ctx.offerValidityMs, answeredFromCache(result.json));
      this.take(fresh, finished);
      this.learn(finished, first ? undefined : sentAt - firstAnswerAt, lastPollAt - firstAnswerAt);
      // Airlines still running this far into the search: not polled for before that by searches started later.
      if (!first) for (const airline of active ?? []) this.seenRunning(airline, sentAt - firstAnswerAt);
      lastPollAt = sentAt;
      if (answer.completed) {
        ctx.leases.delete(leaseKey);
        return;
      }
      this.step();
      const awaited = this.awaited();
      if (awaited.length === 0) {
        this.state = "stopped"; // nobody waits for anything more of it
        return;
      }
      const expected = awaited.map((a) => {
        const id = this.o.sourceIdOf.get(a)!;
        return { expectedMs: ctx.completions.expected(id), bringsOffers: ctx.yields.expects(id, route, market), runningAtMs: ctx.completions.runningAt(id) };
      });
      const elapsed = Date.now() - firstAnswerAt;
      // Until the first offers come (and for a few seconds at most), half the backoff's first step again and
      // again: the fastest airline's flights then show within half a second of its answer.
      const backoff = this.batches.size === 0 && elapsed < EAGER_STEPS * p.initialDelayMs ? (result.paceMs ?? Math.round(EAGER_STEP * p.initialDelayMs)) : pollDelay(p, poll, result.paceMs);
      await this.rest(sharedPollDelay(backoff, elapsed, expected, p.initialDelayMs));
    }
  }

  /**
   * Learns of each finished airline whether it brought offers on the route, and its time: seen done `afterMs`
   * after the first answer (undefined at the first answer: an upstream's cached search tells nothing of it); the
   * previous poll went `beforeMs` after it.
   */
  private learn(finished: readonly number[], afterMs: number | undefined, beforeMs: number): void {
    const { route, market } = this.place;
    for (const airline of finished) {
      const id = this.o.sourceIdOf.get(airline)!;
      this.o.ctx.yields.record(id, route, (this.batches.get(airline) ?? []).reduce((n, b) => n + b.length, 0), market);
      const expected = this.o.ctx.completions.expected(id);
      // Found done at the first poll at or after its expected time: it may have answered well before.
      if (afterMs !== undefined) this.o.ctx.completions.record(id, Math.max(0, afterMs), expected !== undefined && beforeMs < expected, beforeMs);
    }
  }

  private seenRunning(airline: number, elapsedMs: number): void {
    const id = this.o.sourceIdOf.get(airline);
    if (id !== undefined) this.o.ctx.completions.seenRunning(id, elapsedMs);
  }

  private next(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.wakers.push(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      });
    });
  }
}
