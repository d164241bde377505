import type { Clock } from "../clock.js";
import type { Logger } from "../logging/logger.js";
import type { RunningSearch } from "./run-search.js";
import type { SyncOutcome } from "./store-sync.js";

/**
 * What an instance knows of its session store's availability: it logs the store going down and coming back
 * (with counts of the searches affected) and, when it comes back, has every search this instance runs write
 * what the store missed (or itself whole, if the store came back empty) at once, not at its next heartbeat.
 */
export class StoreAvailability {
  /** When the store was last seen going down (epoch ms), while it is down. */
  private downSince: number | undefined;
  /** Until when, after the store came back, a search it lacks may still be written back by its owner. */
  private recoveringUntil = 0;

  constructor(
    private readonly o: { readonly clock: Clock; readonly logger: Logger; readonly leaseMs: number },
    private readonly running: ReadonlyMap<string, RunningSearch>,
    private readonly cachedCount: () => number,
  ) {}

  /** True just after the store came back: a search it lacks may be one its owner is still writing back. */
  recovering(): boolean {
    return this.o.clock.now() < this.recoveringUntil;
  }

  changed(available: boolean): void {
    if (available) this.up();
    else this.down();
  }

  private down(): void {
    this.downSince = this.o.clock.now();
    this.o.logger.log({ level: "warn", msg: "store.down", runningSearches: this.running.size, cachedSearches: this.cachedCount() });
  }

  private up(): void {
    const downMs = this.downSince === undefined ? undefined : this.o.clock.now() - this.downSince;
    this.downSince = undefined;
    // Owners write their searches back on their own 'up' or at their next heartbeat (at most a lease later).
    this.recoveringUntil = this.o.clock.now() + this.o.leaseMs;
    const runs = [...this.running.values()];
    void Promise.all(runs.map((r) => r.sync())).then((outcomes) => {
      const count = (x: SyncOutcome) => outcomes.filter((o) => o === x).length;
      const [rewritten, resumed, stillUnavailable, ended] = [count("rewritten"), count("resumed"), count("unavailable"), count("ended")];
      this.o.logger.log({ level: "info", msg: "store.up", downMs, runningSearches: runs.length, rewritten, resumed, stillUnavailable, ended });
    });
  }
}
