import { search, type Offer, type SearchSnapshot, type SearchSource, type SourceFailure, type SourceProgress } from "@voar/core";
import type { Subscription } from "rxjs";
import type { Logger } from "../logging/logger.js";
import { changedOffers, rejoinWindowMs, type SearchChange } from "./search-change.js";
import type { SearchRecord, SessionStore } from "./session-store.js";

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
  readonly timeoutMs?: number | undefined;
  readonly maxAttempts?: number | undefined;
  /** How long a completed search with retryable source failures is shared with new requests (see `rejoinWindowMs`). */
  readonly failedTtlMs: number;
  readonly logger: Logger;
  /** Called once when the run ends, however it ends. */
  readonly onEnd: () => void;
}

/** A search this instance runs. */
export interface RunningSearch {
  /** Stops the engine (aborting its sources); `release` gives the lease up so another instance may take over. */
  stop(release: boolean): Promise<void>;
}

const stoppedMessage = "a busca foi interrompida antes desta fonte responder";

/**
 * Progress to record: the engine's for the sources it runs (never fewer items than already recorded), the
 * recorded one for the others; once complete, a source nobody ran any more is failed, so a completed
 * search never shows a pending source.
 */
const mergeProgress = (recorded: readonly SourceProgress[], engine: readonly SourceProgress[], completed: boolean): SourceProgress[] =>
  recorded.map((p) => {
    const e = engine.find((x) => x.id === p.id);
    if (e) return { ...e, items: Math.max(e.items, p.items) };
    if (completed && p.state === "pending") return { ...p, state: "failed", error: { tag: "DeadlineExceeded", message: stoppedMessage, retryable: true } };
    return p;
  });

/**
 * Runs the engine for a search and records every snapshot it emits as the next {@link SearchChange} in the
 * store, in order, renewing the lease as it goes (and on a heartbeat while sources are quiet). Versions
 * continue from the base, so a takeover never reuses a version number. Stops when the search completes,
 * when the lease is lost, or on {@link RunningSearch.stop}.
 */
export const runSearch = (o: RunSearchOptions): RunningSearch => {
  const seen = new Map<string, Offer>();
  let version = o.base.version;
  let chain: Promise<void> = Promise.resolve();
  let ended = false;

  // Only ever called from the append chain, so after `heartbeat` and `subscription` below exist.
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    subscription.unsubscribe();
    o.onEnd();
  };

  const enqueue = (step: () => Promise<boolean>, what: string) => {
    chain = chain.then(async () => {
      if (ended) return;
      try {
        if (!(await step())) {
          o.logger.log({ level: "warn", msg: "search.lease_lost", searchId: o.record.id });
          end();
        }
      } catch (e) {
        // A store failure stops this run; the search is taken over or expires. Logged, never hidden.
        o.logger.log({ level: "error", msg: `search.${what}_failed`, searchId: o.record.id, error: e instanceof Error ? e.message : String(e) });
        end();
      }
    });
  };

  const record = (step: SearchChange) => {
    const window = step.completed ? rejoinWindowMs(step.sources, o.failedTtlMs) : undefined;
    const change: SearchChange = window === undefined ? step : { ...step, rejoinMs: window };
    enqueue(() => o.store.append(o.record.id, change, o.owner, o.leaseMs), "append");
    if (change.completed) {
      chain = chain.then(async () => {
        end();
        await o.store.releaseLease(o.record.id, o.owner);
      });
    }
  };

  const onSnapshot = (s: SearchSnapshot) => {
    if (s.version === 0 && !s.completed) return; // the engine's empty start: already what the base says
    const sources = mergeProgress(o.base.sources, s.sources, s.completed);
    record({ version: ++version, offers: changedOffers(s, seen), sources, completed: s.completed, completion: s.completion });
  };

  const onEngineError = (e: unknown) => {
    o.logger.log({ level: "error", msg: "search.engine_failed", searchId: o.record.id, error: e instanceof Error ? e.message : String(e) });
    record({ version: ++version, offers: [], sources: mergeProgress(o.base.sources, [], true), completed: true, completion: "deadline" });
  };

  /**
   * A source's failure with its detail (the upstream's message, a network error code, a status): to the log
   * only, never to the store or to clients, which get the catalogue's sentence and code.
   */
  const onSourceError = (f: SourceFailure) => {
    o.logger.log({
      level: f.final ? "warn" : "info",
      msg: f.final ? "search.source_failed" : "search.source_retry",
      searchId: o.record.id,
      sourceId: f.sourceId,
      attempt: f.attempt,
      tag: f.error._tag,
      detail: f.error.message,
    });
  };

  const heartbeat = setInterval(() => enqueue(() => o.store.acquireLease(o.record.id, o.owner, o.leaseMs), "lease"), Math.max(500, Math.floor(o.leaseMs / 3)));
  const subscription: Subscription = search(o.record.query, o.sources, {
    deadlineMs: Math.max(0, o.deadlineMs),
    hiddenCashAirlines: o.record.hiddenCashAirlines,
    ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
    ...(o.maxAttempts === undefined ? {} : { maxAttempts: o.maxAttempts }),
    onSourceError,
  }).subscribe({ next: onSnapshot, error: onEngineError });

  return {
    async stop(release) {
      end();
      await chain;
      if (release) await o.store.releaseLease(o.record.id, o.owner);
    },
  };
};
