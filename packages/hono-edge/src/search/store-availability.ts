import type { Clock } from "../clock.js";
import type { Logger } from "../logging/logger.js";
import type { RunningSearch } from "./run-search.js";
import type { SyncOutcome } from "./store-sync.js";

/** A store that flaps (down and up again within this long of the last line logged) is not logged at each flap. */
export const STORE_FLAP_WINDOW_MS = 10_000;

/**
 * What an instance knows of its session store's availability: it logs the store going down and coming back
 * (with counts of the searches affected) and, when it comes back, has every search this instance runs write
 * what the store missed (or itself whole, if the store came back empty) at once, not at its next heartbeat.
 *
 * Each change is logged once, and a store that flaps is not logged at every flap: a `store.down` within
 * {@link STORE_FLAP_WINDOW_MS} of the last line logged is held back, with the `store.up` that ends it. When the
 * window ends, what was held back is told in one line: `store.down` if the store is still down, else
 * `store.flapped` (`warn`); either counts the changes held back (`flaps`). So a flapping store costs at most a
 * line per window. The searches are written back at every `up`, logged or not.
 */
export class StoreAvailability {
  /** When the store was last seen going down (epoch ms), while it is down. */
  private downSince: number | undefined;
  /** When the store was last seen going down or coming back. */
  private changedAt = -Infinity;
  /** Until when, after the store came back, a search it lacks may still be written back by its owner. */
  private recoveringUntil = 0;
  /** When the last `store.down` or `store.up` was logged. */
  private loggedAt = -Infinity;
  /** Whether the current outage's `store.down` was held back (so its `store.up` is too). */
  private heldBack = false;
  /** Changes held back since the last line logged. */
  private flaps = 0;
  private flapTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly o: { readonly clock: Clock; readonly logger: Logger; readonly leaseMs: number },
    private readonly running: ReadonlyMap<string, RunningSearch>,
    private readonly cachedCount: () => number,
  ) {}

  /** True just after the store came back: a search it lacks may be one its owner is still writing back. */
  recovering(): boolean {
    return this.o.clock.now() < this.recoveringUntil;
  }

  /** Whether the store went down or came back since `at` (or is down now): a wait since then may be the store's. */
  changedSince(at: number): boolean {
    return this.downSince !== undefined || this.changedAt >= at;
  }

  changed(available: boolean): void {
    this.changedAt = this.o.clock.now();
    if (available) this.up();
    else this.down();
  }

  /** The fields every logged line carries: the changes held back since the last one, if any. */
  private logged(): { flaps?: number } {
    this.loggedAt = this.o.clock.now();
    const flaps = this.flaps;
    this.flaps = 0;
    return flaps > 0 ? { flaps } : {};
  }

  private logDown(): void {
    this.heldBack = false;
    this.o.logger.log({ level: "warn", msg: "store.down", runningSearches: this.running.size, cachedSearches: this.cachedCount(), ...this.logged() });
  }

  private down(): void {
    this.downSince = this.o.clock.now();
    const sinceLogged = this.o.clock.now() - this.loggedAt;
    if (sinceLogged >= STORE_FLAP_WINDOW_MS) return this.logDown();
    this.heldBack = true;
    this.flaps += 1;
    this.flapTimer ??= setTimeout(() => {
      this.flapTimer = undefined;
      if (this.downSince !== undefined && this.heldBack) return this.logDown();
      if (this.flaps > 0) this.o.logger.log({ level: "warn", msg: "store.flapped", runningSearches: this.running.size, ...this.logged() });
    }, STORE_FLAP_WINDOW_MS - sinceLogged);
  }

  private up(): void {
    const downMs = this.downSince === undefined ? undefined : this.o.clock.now() - this.downSince;
    this.downSince = undefined;
    // Owners write their searches back on their own 'up' or at their next heartbeat (at most a lease later).
    this.recoveringUntil = this.o.clock.now() + this.o.leaseMs;
    const quiet = this.heldBack;
    if (quiet) {
      this.heldBack = false;
      this.flaps += 1;
    }
    const runs = [...this.running.values()];
    void Promise.all(runs.map((r) => r.sync())).then((outcomes) => {
      if (quiet) return;
      const count = (x: SyncOutcome) => outcomes.filter((o) => o === x).length;
      const [rewritten, resumed, stillUnavailable, ended] = [count("rewritten"), count("resumed"), count("unavailable"), count("ended")];
      this.o.logger.log({ level: "info", msg: "store.up", downMs, runningSearches: runs.length, rewritten, resumed, stillUnavailable, ended, ...this.logged() });
    });
  }
}
