import { hasResults, search, type Offer, type SearchSnapshot, type SearchSource, type SourceFailure } from "@voar/core";
import type { Subscription } from "rxjs";
import type { Clock } from "../clock.js";
import { loggerInTrace, type Logger } from "../logging/logger.js";
import type { SearchEnd, ServiceMetrics } from "../telemetry/service-metrics.js";
import { context, SpanStatusCode, trace, tracer, type Context as TraceContext } from "../telemetry/tracing.js";
import { changedOffers, mergeProgress, rejoinWindowMs, type SearchChange } from "./search-change.js";
import type { SearchRecord, SessionStore } from "./session-store.js";
import { rejoinWithinValidity } from "./offer-validity.js";
import { offersExpiry } from "./offers-expiry.js";
import { createStoreSync, type SyncOutcome } from "./store-sync.js";
import { answerMeter } from "./answer-meter.js";

export type { TraceContext };

/** What {@link runSearch} needs. */
export interface RunSearchOptions {
  readonly record: SearchRecord;
  /** The state to continue from: empty for a new search, the stored state when taking one over. */
  readonly base: SearchSnapshot;
  /** The engine sources to run: all of the search's for a new one, the still pending ones on takeover. */
  readonly sources: readonly SearchSource[];
  readonly store: SessionStore;
  /** This instance's id: the lease owner. */
  readonly owner: string;
  readonly leaseMs: number;
  /** Time left until the search's deadline. */
  readonly deadlineMs: number;
  /** At the deadline, how long a source still being sent an answer is waited for, at most (see core's `deadlineHoldMs`). */
  readonly deadlineHoldMs?: number | undefined;
  readonly timeoutMs?: number | undefined;
  readonly maxAttempts?: number | undefined;
  /** How long a completed search with retryable source failures is shared with new requests (see `rejoinWindowMs`; never past its offers' validity). */
  readonly failedTtlMs: number;
  readonly logger: Logger;
  /** Counts how the search ended and each source's answer (offers, time since this run started) and failures. */
  readonly metrics?: ServiceMetrics | undefined;
  /** Times the sources' answers for `metrics`. Default: `Date.now`. */
  readonly clock?: Clock | undefined;
  /** The trace context of the request that started the search (its span's parent). Default: the active one. */
  readonly trace?: TraceContext | undefined;
  /** Called once when the run ends, however it ends. */
  readonly onEnd: () => void;
  /**
   * Called with the snapshot of a version once the store recorded it, when this run started the search
   * (empty base): it is the snapshot the store's changes rebuild to, already built by the engine, so the
   * hub keeps it instead of rebuilding (and holding) a second copy.
   */
  readonly recorded?: ((snapshot: SearchSnapshot) => void) | undefined;
}

/** A search this instance runs. */
export interface RunningSearch {
  /** Stops the engine (aborting its sources); `release` gives the lease up so another instance may take over. */
  stop(release: boolean): Promise<void>;
  /** Writes at once what the store is missing of this search (after an outage), instead of at the next heartbeat. */
  sync(): Promise<SyncOutcome>;
}

/**
 * Runs the engine for a search and records every snapshot it emits as the next {@link SearchChange} in the
 * store, in order, renewing the lease as it goes (and on a heartbeat while sources are quiet). Versions
 * continue from the base, so a takeover never reuses a version number. Stops when the search completes,
 * when the lease is lost, or on {@link RunningSearch.stop}.
 *
 * The store may be unreachable for a while (`StoreUnavailable`): the engine goes on, its changes wait here
 * in order, and each heartbeat (or {@link RunningSearch.sync}) tries again. When the store answers, the
 * changes it missed are appended; if it came back without the search (restarted empty), the search is
 * written back whole, as one cumulative change at the latest version, with every offer this run and its
 * base had, so its Token keeps working and nothing a client received disappears.
 */
export const runSearch = (o: RunSearchOptions): RunningSearch => {
  const seen = new Map<string, Offer>();
  let version = o.base.version;
  let ended = false;
  // The run is a span (`voar.search`), child of the request that started or took over the search; the
  // engine runs in its context, so each source attempt and upstream call nests under it.
  const parent = o.trace ?? context.active();
  const span = tracer().startSpan("voar.search", { attributes: { "voar.search.id": o.record.id, "voar.search.sources": o.sources.length, "voar.search.base_version": o.base.version } }, parent);
  const traced = trace.setSpan(parent, span);
  // Every record of this run carries its trace (it is written after awaits and from timers, outside any context).
  const logger = loggerInTrace(o.logger, traced);
  const now = () => (o.clock ? o.clock.now() : Date.now());
  const startedAt = now();
  let finished = false;
  const finish = (how: SearchEnd | "stopped") => {
    if (finished) return;
    finished = true;
    span.setAttribute("voar.search.end", how);
    if (how === "failed") span.setStatus({ code: SpanStatusCode.ERROR, message: "every source failed" });
    span.end();
    if (how !== "stopped") o.metrics?.searchEnded(how);
  };

  // Only ever called after `heartbeat` and `subscription` below exist.
  const end = () => {
    if (ended) return;
    ended = true;
    finish("stopped");
    clearInterval(heartbeat);
    expiry.stop();
    subscription.unsubscribe();
    o.onEnd();
  };

  // Completes the search without its engine (it failed, or the offers ended: see `offersExpiry`), pending sources stopped.
  let [completed, latestSources] = [false, o.base.sources];
  const completeNow = (how: "failed" | "deadline") => {
    completed = true;
    finish(how);
    record({ version: ++version, offers: [], sources: mergeProgress(latestSources, [], true), completed: true, completion: "deadline" });
  };
  const expiry = offersExpiry(o.base, now, () => {
    if (ended || completed) return;
    logger.log({ level: "info", msg: "search.offers_expired", searchId: o.record.id, version: version + 1 });
    subscription.unsubscribe();
    completeNow("deadline");
  });

  /** Every offer of the base and of this run (the latest version of each), with the latest progress. */
  const wholeState = (latest: SearchChange | undefined): SearchChange => {
    const offers = new Map<string, Offer>();
    for (const [offerId, offer] of o.base.offers) offers.set(offerId, offer);
    for (const [offerId, offer] of seen) offers.set(offerId, offer);
    const last = latest ?? { version, offers: [], sources: o.base.sources, completed: false };
    return { ...last, offers: [...offers.values()], cumulative: true };
  };

  // The engine's latest snapshot as recorded (the version and progress of its change): what the store holds
  // once that change is appended. Only when the run started from nothing: a takeover's engine lacks the base.
  const fresh = o.base.version === 0 && !hasResults(o.base);
  let latestRecorded: SearchSnapshot | undefined;
  const appended = (change: SearchChange) => {
    if (latestRecorded?.version === change.version) o.recorded?.(latestRecorded);
  };
  const meter = answerMeter({ metrics: o.metrics, now, startedAt, fresh });
  const writer = createStoreSync({ record: o.record, store: o.store, owner: o.owner, leaseMs: o.leaseMs, logger, wholeState, end, ended: () => ended, appended });

  const record = (step: SearchChange) => {
    const window = step.completed ? rejoinWithinValidity(rejoinWindowMs(step.sources, o.failedTtlMs), [...o.base.offers.values(), ...seen.values()], now()) : undefined;
    writer.push(window === undefined ? step : { ...step, rejoinMs: window });
  };

  const onSnapshot = (s: SearchSnapshot) => {
    if (s.version === 0 && !s.completed) return; // the engine's empty start: already what the base says
    meter(s); // each source's answer and the first offer's time; how the search ended, once it is complete
    if (s.completed) finish(s.sources.length > 0 && s.sources.every((p) => p.state === "failed") ? "failed" : (s.completion ?? "finished"));
    const sources = mergeProgress(o.base.sources, s.sources, s.completed);
    const change: SearchChange = { version: ++version, offers: changedOffers(s, seen), sources, completed: s.completed, completion: s.completion };
    if (fresh && o.recorded) latestRecorded = { ...s, version: change.version, sources, completed: s.completed, completion: s.completion };
    latestSources = sources;
    completed = s.completed;
    record(change);
    if (!completed) expiry.watch(s);
  };

  const onEngineError = (e: unknown) => {
    logger.log({ level: "error", msg: "search.engine_failed", searchId: o.record.id, error: e instanceof Error ? e.message : String(e) });
    completeNow("failed");
  };

  /**
   * A source's failure with its detail (the upstream's message, a network error code, a status): to the log
   * only, never to the store or to clients, which get the catalogue's sentence and code.
   */
  const onSourceError = (f: SourceFailure) => {
    logger.log({
      level: f.final ? "warn" : "info",
      msg: f.final ? "search.source_failed" : "search.source_retry",
      searchId: o.record.id,
      sourceId: f.sourceId,
      attempt: f.attempt,
      tag: f.error._tag,
      detail: f.error.message,
    });
    o.metrics?.sourceFailed(f.sourceId, f.error._tag, f.final);
  };

  const heartbeat = setInterval(() => void writer.beat(), Math.max(500, Math.floor(o.leaseMs / 3)));
  const subscription: Subscription = context.with(traced, () => search(o.record.query, o.sources, {
    deadlineMs: Math.max(0, o.deadlineMs),
    ...(o.deadlineHoldMs === undefined ? {} : { deadlineHoldMs: o.deadlineHoldMs }),
    hiddenCashAirlines: o.record.hiddenCashAirlines,
    ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
    ...(o.maxAttempts === undefined ? {} : { maxAttempts: o.maxAttempts }),
    onSourceError,
  }).subscribe({ next: onSnapshot, error: onEngineError }));

  return {
    async stop(release) {
      end();
      await writer.drain();
      if (release) await o.store.releaseLease(o.record.id, o.owner);
    },
    sync: () => writer.sync(),
  };
};
