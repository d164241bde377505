import type { Clock } from "../clock.js";
import { InstanceOverloaded } from "../errors/instance-overloaded.js";
import type { Logger } from "../logging/logger.js";
import { BoundedMap } from "../util/bounded-map.js";
import type { LoadSignal } from "./load-signal.js";

/** Settings of {@link Admission}. */
export interface AdmissionOptions {
  /** The instance's load; without one, only the caps apply. */
  readonly load?: LoadSignal | undefined;
  /** Shed while the loop's delay is at or above this (or half of it with the loop busy 90% of the time); 0: no load signal. */
  readonly maxLoopDelayMs: number;
  /** Shed for a second after a few requests waited this long before their search could start, the loop busy; 0: off. */
  readonly maxQueueMs: number;
  /** Searches this instance runs at once; 0: no cap. */
  readonly maxRunningSearches: number;
  /** SSE streams this instance holds at once; 0: no cap. */
  readonly maxStreams: number;
  /** `Retry-After` of a refusal, in seconds. */
  readonly retryAfterSeconds: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The searches this instance runs now. */
  readonly runningSearches: () => number;
  /** Search keys remembered as served by this instance (see {@link Admission.served}). Default 1000. */
  readonly rememberedKeys?: number | undefined;
  /** Told of each refused search or stream (the metrics count them). */
  readonly onRefused?: ((reason: "overloaded" | "concurrency") => void) | undefined;
  /** Told when shedding starts (true) and ends (false), e.g. for a gauge. */
  readonly onShedding?: ((on: boolean) => void) | undefined;
}

/** Why new work is refused now: the load (loop delay, busy loop, requests waiting), or a cap reached. */
export type LoadReason = "loop_delay" | "busy_loop" | "queue" | "running_searches";

/** What admission control says of the instance now (for `/ready`). */
export interface LoadState {
  readonly overloaded: boolean;
  readonly loopDelayMs: number;
  /** Why, while overloaded. */
  readonly reason?: LoadReason | undefined;
}

/** How long requests that waited too long keep new searches out. */
const QUEUE_HOLD_MS = 1_000;
/** Requests that waited too long, within `QUEUE_HOLD_MS`, that make a backlog (one slow request, a cold start, is none). */
const QUEUE_STRIKES = 3;
/** The loop counts as busy all the time at or above this share of busy time. */
const BUSY = 0.9;

/**
 * Admission control of new work by what the instance can carry, so that a busy instance answers quickly
 * "not now" (429 `LIMITE_EXCEDIDO`, `Retry-After`) instead of taking seconds for everything: the searches
 * already running, their polls and streams keep the time they need. A new search is refused while
 * - the instance runs `maxRunningSearches` searches;
 * - its event loop's delay is at or above `maxLoopDelayMs`, or at or above half of it while the loop is busy 90%
 *   of the time or more (saturated: more work only queues);
 * - three requests within a second waited `maxQueueMs` or more before their search could start while the loop was
 *   busy 90% of the time: a burst admitted faster than the loop signals can follow (the caller leaves out a wait
 *   spent on a store that went down meanwhile: that is no load of the instance's).
 * The load states let new work in again once the delay fell below half its limit and no request waited long for
 * a second, so admission does not flap at the edge. A new SSE stream is refused at `maxStreams`.
 *
 * An overloaded instance is not a store that is down: its Redis answers, and it says so apart. Shedding is
 * logged once each way: `load.shedding` (warn, with why, the delay and the searches running) and `load.normal`
 * (info, with how long it lasted and how many requests it refused), never once per request.
 */
export class Admission {
  private shedding: LoadReason | undefined;
  private since = 0;
  private refused = 0;
  private slowUntil = 0;
  private strikes: number[] = [];
  private streams = 0;
  /**
   * Keys of the searches this instance opened or joined lately: while it sheds load, a request for one of
   * them (a client re-sending its query to poll, as legacy clients do) is let through to join its search.
   */
  private readonly known: BoundedMap<string, true>;

  constructor(private readonly o: AdmissionOptions) {
    this.known = new BoundedMap(o.rememberedKeys ?? 1_000);
  }

  /** Lets the request for a search key through, or throws {@link InstanceOverloaded} (unless the key was served here lately). `waitedMs`: how long the request waited so far. */
  admit(searchKey: string, waitedMs = 0): void {
    try {
      if (this.known.get(searchKey) !== undefined) return;
      if (this.o.maxRunningSearches > 0 && this.o.runningSearches() >= this.o.maxRunningSearches) this.refuse("concurrency");
      if (this.state().overloaded) this.refuse("overloaded");
    } finally {
      // The request that waited is judged as it came (it paid its wait); the ones after it are held back.
      this.noteWait(waitedMs);
    }
  }

  /** A request's wait before its search could start: a few long ones on a busy loop within a second are a backlog. */
  private noteWait(waitedMs: number): void {
    if (this.o.maxQueueMs <= 0 || waitedMs < this.o.maxQueueMs || (this.o.load?.utilization?.() ?? 0) < BUSY) return;
    const now = this.o.clock.now();
    this.strikes = [...this.strikes.filter((at) => now - at < QUEUE_HOLD_MS), now];
    if (this.strikes.length >= QUEUE_STRIKES) this.slowUntil = now + QUEUE_HOLD_MS;
  }

  /** Remembers that this instance opened or joined the search of a key. */
  served(searchKey: string): void {
    this.known.set(searchKey, true);
  }

  /** A new SSE stream: throws {@link InstanceOverloaded} at `maxStreams`; else counts it until `release` is called. */
  openStream(): () => void {
    if (this.o.maxStreams > 0 && this.streams >= this.o.maxStreams) this.refuse("concurrency");
    this.streams++;
    let open = true;
    return () => {
      if (open) this.streams--;
      open = false;
    };
  }

  /** `Retry-After` of a refusal, in seconds. */
  get retryAfterSeconds(): number {
    return this.o.retryAfterSeconds;
  }

  /** Reads the load now, switching (and logging the switch) when it crossed its thresholds. */
  state(): LoadState {
    const loopDelayMs = Math.round(this.o.load?.loopDelayMs() ?? 0);
    const now = this.o.clock.now();
    const cause = this.cause(loopDelayMs, this.shedding === undefined ? 1 : 0.5, now);
    if (this.shedding === undefined && cause !== undefined) {
      this.shedding = cause;
      this.since = now;
      this.refused = 0;
      this.o.logger.log({ level: "warn", msg: "load.shedding", reason: cause, loopDelayMs, maxLoopDelayMs: this.o.maxLoopDelayMs, runningSearches: this.o.runningSearches() });
      this.o.onShedding?.(true);
    } else if (this.shedding !== undefined && cause === undefined) {
      this.shedding = undefined;
      this.o.logger.log({ level: "info", msg: "load.normal", loopDelayMs, sheddingMs: now - this.since, refused: this.refused });
      this.o.onShedding?.(false);
    }
    const capped = this.o.maxRunningSearches > 0 && this.o.runningSearches() >= this.o.maxRunningSearches;
    const reason = this.shedding ?? (capped ? "running_searches" : undefined);
    return { overloaded: reason !== undefined, loopDelayMs, ...(reason ? { reason } : {}) };
  }

  /** What overloads the instance now, judged against its limits times `scale` (1 to start shedding, 0.5 to keep at it). */
  private cause(loopDelayMs: number, scale: number, now: number): LoadReason | undefined {
    const max = this.o.maxLoopDelayMs * scale;
    if (this.o.load && this.o.maxLoopDelayMs > 0) {
      if (loopDelayMs >= max) return "loop_delay";
      if ((this.o.load.utilization?.() ?? 0) >= BUSY && loopDelayMs >= max / 2) return "busy_loop";
    }
    return now < this.slowUntil ? "queue" : undefined;
  }

  private refuse(reason: "overloaded" | "concurrency"): never {
    this.refused += 1;
    this.o.onRefused?.(reason);
    throw new InstanceOverloaded(this.o.retryAfterSeconds);
  }
}
