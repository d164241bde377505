/**
 * One upstream search, run to its end and followed by the sources that want its offers: the query, then polls by
 * the `LeaseId` (or `Token`) it hands out, until `Completed`. Every source of the adapter runs its upstream searches
 * this way:
 * - the "one search" strategy: one all-airlines search (`Companhia: -1`) followed by every airline's source, each
 *   done when the upstream's `ActiveProviders` no longer lists its airline (it has all its offers then);
 * - a single-airline search (the fan-out, or a search of one Companhia) and the single upstream source: one follower,
 *   done when the search completes.
 *
 * Polls follow the plan of `planNextPoll`: the plain client's 10 s grid while anything is awaited, aims where the
 * awaited airlines' learned times say their offers are likely to come, within the adapter's budget. What each poll
 * saw is learned: every airline seen done gives the interval it finished in (after the poll that saw it running left,
 * before the poll that saw it done came back), one still running when the search ended a lower bound.
 *
 * A request is never left while the upstream answers it: the run tells its followers it is alive while it waits (so
 * the engine's inactivity timeout measures nothing of ours), the request's limit follows the upstream's answer times,
 * and the next poll leaves only when the last one came back. A failed poll is retried a few times in a row (the
 * upstream's search lives on); beyond that, or for a non-retryable failure, the followers fail with the tagged error
 * and the engine's retry resumes the same upstream search with the held lease. The run stops when no source follows it.
 */
import type { Context } from "@opentelemetry/api";
import { MalformedPayload, SourceTimeout, queryKey, retriesWithinSearch, toSourceError, upstreamFailure, type Offer, type SearchQuery } from "@voar/core";
import { rest } from "../internal/rest.js";
import { AnswerReader } from "./answer-reader.js";
import { pagesOf, pollIdOf, readPages } from "./answer-pages.js";
import { consultar, type ConsultarResult } from "./consultar.js";
import type { Place } from "./learned-pacing.js";
import { OfferChanges } from "./offer-changes.js";
import { answeredFromCache, withFreshness } from "./offer-freshness.js";
import { stableOfferIds } from "./offer-identity.js";
import { planNextPoll, type AwaitedAirline } from "./poll-planner.js";
import { pollDelay } from "./poll-pacing.js";
import { activeAirlines } from "./provider-names.js";
import { LEASE_TTL_MS, type UpstreamContext } from "./upstream-context.js";
import { pagingOf, searchRequestBody } from "./wire-request.js";

/** The follower of a whole search (a single-airline search, the single source): done when the search completes. */
export const WHOLE = 0;

/** What an {@link UpstreamRun} runs with. */
export interface UpstreamRunOptions {
  /** The context of the run's requests: the run's breaker and the first search's budget on its transport. */
  readonly ctx: UpstreamContext;
  /** The run's own id (its breaker, its held lease): `upstream:all`, or the source's id. */
  readonly runId: string;
  /** The query, as the upstream is asked it. */
  readonly query: SearchQuery;
  /**
   * Who may follow the run, each with the id its time is learned under: the airlines (Companhia ids) of an
   * all-airlines search, done as `ActiveProviders` says; or {@link WHOLE} alone, done when the search completes.
   */
  readonly followers: ReadonlyMap<number, string>;
  /** Which follower an offer belongs to (a key of `followers`), or undefined when none (the offer is left out). */
  readonly ownerOf: (offer: Offer) => number | undefined;
  /** The query's route and market, which its learned times and yields are kept for. */
  readonly place: Place;
  /** `"learned"` (default): polls planned on the learned times; `"backoff"`: the backoff and the upstream's hints alone. */
  readonly pacing?: "learned" | "backoff" | undefined;
  /** The trace context of the source attempt that started the run: its requests are spans of it. */
  readonly trace: Context;
  /** Called once when the run ends, however it ends. */
  readonly onEnd: () => void;
}

/** A run of an upstream search, shared by the sources following it. */
export class UpstreamRun {
  private readonly controller = new AbortController();
  /** The offers of each follower as they came, batch by batch. */
  private readonly batches = new Map<number, Offer[][]>();
  private readonly done = new Set<number>();
  private readonly following = new Map<number, number>();
  private state: "idle" | "running" | "complete" | "failed" | "stopped" = "idle";
  private error: unknown;
  /** Grows at every step of the run (a request out, an answer, a beat of a wait): each step tells followers the run is alive. */
  private ticks = 0;
  private wakers: (() => void)[] = [];
  /** Offers that belong to no follower, left out. */
  unattributed = 0;
  /** `Date.now()` when the upstream search started (its first request left). */
  private origin: number | undefined;
  /** When the request in flight left, while one is. */
  private inFlightSince: number | undefined;
  /** Requests the run sent (pages included). */
  private spent = 0;
  /** Whether some follower's time was unknown when the run first planned (it learns for the next ones). */
  private cold: boolean | undefined;
  /** Requests of aims taken from the adapter's savings when planned (`PollBudget.aimed`), handed back when it settles. */
  private taken = 0;
  /** For each follower not seen done yet: when (ms from the origin) the latest request that saw it running left. */
  private readonly runningAt = new Map<number, number>();

  constructor(private readonly o: UpstreamRunOptions) {}

  /** The trace context of the source attempt that started the run (its requests are spans of it). */
  get trace(): Context {
    return this.o.trace;
  }

  /** The offers of `key` from the first, then as they come, until it is done; throws if the run fails. */
  async *follow(key: number, signal: AbortSignal): AsyncGenerator<readonly Offer[]> {
    this.following.set(key, (this.following.get(key) ?? 0) + 1);
    if (this.state === "idle") this.start();
    try {
      for (let sent = 0, tick = this.ticks; ; ) {
        const mine = this.batches.get(key) ?? [];
        if (sent < mine.length) {
          const out = mine.slice(sent).flat();
          sent = mine.length;
          tick = this.ticks;
          yield out;
        } else if (this.done.has(key)) return;
        else if (this.state === "failed") throw this.error;
        else if (this.state !== "running") throw new SourceTimeout({ afterMs: 0 });
        else if (tick !== this.ticks) {
          tick = this.ticks;
          yield [];
        } else await this.next(signal);
      }
    } finally {
      this.following.set(key, (this.following.get(key) ?? 1) - 1);
      if (this.state === "running" && ![...this.following.values()].some((n) => n > 0)) this.controller.abort(new DOMException("no search follows this upstream search any more", "AbortError"));
    }
  }

  /** While a request is in flight, how long until its answer is expected (ms, at least a little); undefined when none is. */
  answerDueMs(): number | undefined {
    if (this.inFlightSince === undefined) return undefined;
    return Math.max(500, this.inFlightSince + this.o.ctx.pace.expectedMs() - Date.now());
  }

  /** The followers still awaited. */
  private awaited(): number[] {
    return [...this.following].filter(([k, n]) => n > 0 && !this.done.has(k)).map(([k]) => k);
  }

  private start(): void {
    this.state = "running";
    this.run()
      .then(
        () => (this.state = this.state === "running" ? "complete" : this.state),
        (e: unknown) => {
          if (this.controller.signal.aborted) this.state = "stopped";
          else {
            this.state = "failed";
            this.error = toSourceError(e);
          }
        },
      )
      .finally(() => {
        this.settle();
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

  /** Sends one request; while its answer comes, followers are told every heartbeat that the run is alive. */
  private async request(body: Readonly<Record<string, unknown>>): Promise<ConsultarResult> {
    const beat = setInterval(() => this.step(), this.o.ctx.polling.heartbeatMs);
    try {
      const result = await consultar(this.o.ctx, body, this.controller.signal, this.o.trace, (sentAt) => {
        this.inFlightSince = sentAt;
        this.spent++;
      });
      this.o.ctx.learned.recordAnswer(result.receivedAt - result.sentAt);
      return result;
    } finally {
      this.inFlightSince = undefined;
      clearInterval(beat);
    }
  }

  /** Hands the changed offers to their followers (one batch each), and marks done the followers the answer says are. */
  private take(offers: readonly Offer[], finished: Iterable<number>): void {
    const byOwner = new Map<number, Offer[]>();
    for (const offer of offers) {
      const owner = this.o.ownerOf(offer);
      if (owner === undefined || !this.o.followers.has(owner)) {
        this.unattributed++;
        continue;
      }
      const list = byOwner.get(owner);
      if (list) list.push(offer);
      else byOwner.set(owner, [offer]);
    }
    for (const [owner, batch] of byOwner) {
      const list = this.batches.get(owner);
      if (list) list.push(batch);
      else this.batches.set(owner, [batch]);
    }
    for (const key of finished) this.done.add(key);
  }

  private async run(): Promise<void> {
    const { ctx, query } = this.o;
    const p = ctx.polling;
    const leaseKey = `${this.o.runId}|${queryKey(query)}`;
    const held = ctx.leases.get(leaseKey);
    const resumable = held && Date.now() - held.at < LEASE_TTL_MS ? held : undefined;
    let pollId = resumable?.leaseId;
    let resuming = pollId !== undefined;
    this.origin = resumable?.origin;
    const reader = new AnswerReader({ airports: ctx.airports, sourceId: this.o.runId, query });
    const readContext = { airports: ctx.airports, sourceId: this.o.runId, query };
    const changes = new OfferChanges();
    const bodyFor = (page: number) => (pollId ? { LeaseId: pollId, ...pagingOf(query, page, ctx.pageSize) } : searchRequestBody(query, page, ctx.pageSize));
    const wholeSearch = this.o.followers.has(WHOLE);
    const ids = [...this.o.followers.values()];
    // What the instances learned of these airlines on this route, read while the first request is out.
    const refreshed = ctx.learned.refresh(ids, this.o.place).then(() => ctx.pace.adopt(ctx.learned.answerTimes()));
    const started = Date.now();
    let failures = 0;
    let answers = 0;
    for (let poll = 1; ; poll++) {
      if (poll > p.maxPolls || Date.now() - started > p.maxDurationMs) throw new SourceTimeout({ afterMs: Date.now() - started });
      this.step(); // the request leaves: the engine's timer runs from here
      let result: ConsultarResult;
      try {
        result = await this.request(bodyFor(1));
      } catch (error) {
        if (this.controller.signal.aborted) throw error;
        const tagged = toSourceError(error);
        // A source that declined to ask (breaker open, budget spent) is not asked again either.
        if (!retriesWithinSearch(tagged) || failures >= p.pollRetries) throw tagged;
        failures++;
        await this.rest(Math.max(tagged._tag === "RateLimited" ? (tagged.retryAfterMs ?? 0) : 0, pollDelay(p, failures, undefined)));
        continue;
      }
      failures = 0;
      const first = answers++ === 0 && !resuming;
      this.origin ??= result.sentAt;
      const answer = reader.read(result.json);
      if (answer instanceof MalformedPayload) throw answer;
      const refused = upstreamFailure(answer);
      if (refused && resuming && refused._tag === "BusinessError") {
        // The held lease is gone upstream: start the search again with the query.
        ctx.leases.delete(leaseKey);
        pollId = undefined;
        resuming = false;
        this.origin = undefined;
        answers = 0;
        continue;
      }
      if (refused) throw refused;
      resuming = false;
      pollId = pollIdOf(result.json, answer) ?? pollId;
      if (pollId) ctx.leases.set(leaseKey, { leaseId: pollId, at: Date.now(), origin: this.origin });

      const sentAt = result.sentAt - this.origin;
      const receivedAt = result.receivedAt - this.origin;
      const active = answer.completed || wholeSearch ? new Set<number>() : activeAirlines(answer.activeProviders);
      const finished = [...this.o.followers.keys()].filter((k) => !this.done.has(k) && (answer.completed || (!wholeSearch && active !== undefined && !active.has(k))));
      // A follower is done with every offer it has: the pages after the first, when the answer has them.
      const pages = finished.length > 0 && pagesOf(result.json) > 1 ? await this.pages(bodyFor, pagesOf(result.json), readContext) : [];
      const fresh = withFreshness(changes.of(stableOfferIds([...answer.offers, ...pages])), Date.now(), ctx.offerValidityMs, answeredFromCache(result.json));
      this.take(fresh, finished);
      this.learn(finished, first ? undefined : receivedAt);
      for (const k of this.o.followers.keys()) if (!this.done.has(k)) this.runningAt.set(k, sentAt);
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
      await refreshed;
      // An upstream that says when to ask again (its `ProximaConsultaMs`, our own service's) is asked then.
      const wait = this.o.pacing === "backoff" || result.paceMs !== undefined ? pollDelay(p, poll, result.paceMs) : this.planned(awaited, sentAt);
      await this.rest(wait);
    }
  }

  /** The wait before the next poll, as planned on the awaited followers' learned times and the budget. */
  private planned(awaited: readonly number[], lastSentAt: number): number {
    const { ctx, place } = this.o;
    const p = ctx.polling;
    const now = Date.now() - this.origin!;
    const airlines: AwaitedAirline[] = awaited.map((k) => {
      const id = this.o.followers.get(k)!;
      const model = ctx.learned.model(id, place);
      return { model, bringsOffers: ctx.learned.expects(id, place), mayProbe: ctx.learned.mayProbe(id, model !== undefined) };
    });
    this.cold ??= airlines.some((a) => a.model === undefined);
    // When the search is expected to end: the middle of the latest awaited airline's time, as learned.
    const expectedEnd = Math.max(0, ...airlines.map((a) => a.model?.quantile(0.5) ?? 0));
    const plan = planNextPoll({
      now,
      lastSentAt,
      awaited: airlines,
      paceMs: p.maxDelayMs,
      stepMs: p.initialDelayMs,
      anyOffers: this.batches.size > 0,
      price: ctx.budget.price(),
      mayAim: (at) => ctx.budget.mayAim(this.spent, at, expectedEnd),
    });
    if (plan.kind !== "tick" && !this.cold) this.taken += ctx.budget.aimed();
    if (plan.probed !== undefined) ctx.learned.probed(this.o.followers.get(awaited[plan.probed]!)!);
    ctx.onPlan?.({
      runId: this.o.runId,
      route: place.route,
      nowMs: now,
      atMs: plan.at,
      kind: plan.kind,
      awaited: awaited.map((k, i) => ({ id: this.o.followers.get(k)!, middleMs: airlines[i]!.model?.quantile(0.5), bringsOffers: airlines[i]!.bringsOffers !== false })),
      price: ctx.budget.price(),
    });
    return Math.max(0, plan.at - now);
  }

  private async pages(bodyFor: (page: number) => Readonly<Record<string, unknown>>, pages: number, readContext: Parameters<typeof readPages>[3]): Promise<Offer[]> {
    this.spent += pages - 1;
    return readPages(this.o.ctx, bodyFor, pages, readContext, this.controller.signal, this.o.trace);
  }

  /**
   * Learns of each follower seen done whether it brought offers on the route, and when it finished: after the
   * request that last saw it running left, by `receivedAt` (undefined at the first answer: an upstream's cached
   * search tells nothing of the airline's time).
   */
  private learn(finished: readonly number[], receivedAt: number | undefined): void {
    const { ctx, place } = this.o;
    for (const k of finished) {
      const id = this.o.followers.get(k)!;
      ctx.learned.recordYield(id, place, (this.batches.get(k) ?? []).reduce((n, b) => n + b.length, 0));
      if (receivedAt !== undefined) ctx.learned.recordTime(id, place, { after: this.runningAt.get(k) ?? 0, by: receivedAt });
      this.runningAt.delete(k);
    }
  }

  /** At the run's end: what was still running is a lower bound of its time, and the budget is settled. */
  private settle(): void {
    const { ctx, place } = this.o;
    if (this.origin === undefined) return;
    for (const [k, after] of this.runningAt) if (!this.done.has(k)) ctx.learned.recordTime(this.o.followers.get(k)!, place, { after });
    this.runningAt.clear();
    // A search left before the upstream completed it (our deadline, an airline that hangs): its plain client would
    // have gone on polling, until the upstream's own deadline or its own limit (public clients of the real service
    // poll for up to 200 s); it is counted as going on for as long again as we followed it, at least one poll more.
    const followed = Date.now() - this.origin;
    const p = ctx.polling;
    ctx.budget.settle(this.spent, this.state === "complete" ? followed : Math.max(followed + p.maxDelayMs, Math.min(p.maxDurationMs, 2 * followed)), this.cold, this.taken);
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
