import type { Clock } from "../clock.js";
import { InstanceOverloaded } from "../errors/instance-overloaded.js";
import type { Logger } from "../logging/logger.js";
import { BoundedMap } from "../util/bounded-map.js";
import type { LoadSignal } from "./load-signal.js";

/** Settings of {@link Admission}. */
export interface AdmissionOptions {
  readonly load: LoadSignal;
  /** New searches are refused while the event loop's delay is at or above this (ms). */
  readonly maxLoopDelayMs: number;
  /** `Retry-After` of a refusal, in seconds. */
  readonly retryAfterSeconds: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The searches this instance runs now, for the log. */
  readonly runningSearches: () => number;
  /** Search keys remembered as served by this instance (see {@link Admission.served}). Default 1000. */
  readonly rememberedKeys?: number | undefined;
  /** Told of each refused search (the metrics count them). */
  readonly onRefused?: (() => void) | undefined;
}

/** What admission control says of the instance now (for `/ready`). */
export interface LoadState {
  readonly overloaded: boolean;
  readonly loopDelayMs: number;
}

/**
 * Admission control of new searches, by the instance's own load: while its event loop lags by
 * `maxLoopDelayMs` or more, new searches are refused (the caller answers 429 `LIMITE_EXCEDIDO` with
 * `Retry-After`), so the searches already running, and their polls and streams, keep the time they need
 * instead of every answer slowing down. It lets new work in again once the delay fell below half the limit
 * (not at the limit itself, so it does not flap on a load that hovers there).
 *
 * An overloaded instance is not a store that is down: its Redis answers, and it says so apart. The switch
 * is logged once each way: `load.shedding` (warn, with the delay and the searches running) and
 * `load.normal` (info, with how long it lasted and how many searches it refused), never once per request.
 */
export class Admission {
  private shedding = false;
  private since = 0;
  private refused = 0;
  /**
   * Keys of the searches this instance opened or joined lately: while it sheds load, a request for one of
   * them (a client re-sending its query to poll, as legacy clients do) is let through to join its search.
   */
  private readonly known: BoundedMap<string, true>;

  constructor(private readonly o: AdmissionOptions) {
    this.known = new BoundedMap(o.rememberedKeys ?? 1_000);
  }

  /** Whether a new search may start now; counts the refusal when it may not. */
  admits(): boolean {
    if (!this.state().overloaded) return true;
    this.refused += 1;
    this.o.onRefused?.();
    return false;
  }

  /** Lets the request for a search key through, or throws {@link InstanceOverloaded} while shedding (unless the key was served here lately). */
  admit(searchKey: string): void {
    if (this.known.get(searchKey) === undefined && !this.admits()) throw new InstanceOverloaded(this.o.retryAfterSeconds);
  }

  /** Remembers that this instance opened or joined the search of a key. */
  served(searchKey: string): void {
    this.known.set(searchKey, true);
  }

  /** `Retry-After` of a refusal, in seconds. */
  get retryAfterSeconds(): number {
    return this.o.retryAfterSeconds;
  }

  /** Reads the load now, switching (and logging the switch) when it crossed its thresholds. */
  state(): LoadState {
    const loopDelayMs = Math.round(this.o.load.loopDelayMs());
    if (!this.shedding && loopDelayMs >= this.o.maxLoopDelayMs) {
      this.shedding = true;
      this.since = this.o.clock.now();
      this.refused = 0;
      this.o.logger.log({ level: "warn", msg: "load.shedding", loopDelayMs, maxLoopDelayMs: this.o.maxLoopDelayMs, runningSearches: this.o.runningSearches() });
    } else if (this.shedding && loopDelayMs < this.o.maxLoopDelayMs / 2) {
      this.shedding = false;
      this.o.logger.log({ level: "info", msg: "load.normal", loopDelayMs, sheddingMs: this.o.clock.now() - this.since, refused: this.refused });
    }
    return { overloaded: this.shedding, loopDelayMs };
  }
}
