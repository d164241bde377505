/**
 * What aimed polls may cost. The plain client a service replaces logs in, sends the query and polls every 10 s until
 * the search completes: 2 + ceil(duration / 10 s) requests. Its grid is polled anyway (see `poll-planner.ts`); the
 * polls aimed between its ticks are paid from what the adapter saved against it (its single login, the ticks skipped
 * while every airline was known to come later, a search it stopped at its deadline): over a run, the adapter spends
 * about what the plain clients would; on one search, never more than twice. A learned search's aim is taken from the
 * savings the moment it is planned (its search settled when it ends), so that searches running at once see each
 * other's aims: a burst of searches cannot all spend one saving.
 *
 * The price of an aim (the share of the airlines' finishing it must bring on time) follows the savings: it falls
 * while the adapter is under the plain clients' count and rises as it nears or passes it.
 */

/** The price of an aim with nothing saved or owed. */
const BASE_PRICE = 0.3;
/** The price halves (doubles) for every this many requests saved (owed). */
const PRICE_SCALE = 6;
const MIN_PRICE = 0.05;
const MAX_PRICE = 0.8;
/** Past this debt (in requests), no aim and no probe go until searches on the grid alone have paid it back. */
const OVERDRAFT = 2;
/**
 * Savings carried at most, in requests: the past does not buy unbounded aims. Debt is carried to a request past the
 * overdraft: a search that spent far more (a first search, learning every airline's time) stops the aims for a few
 * searches, not for dozens.
 */
const CAP = 8;
/**
 * The share of the plain client's requests the adapter aims to spend. Its whole count: aims are taken from the savings
 * when planned, so searches running at once no longer overspend one saving before any of them settles (a margin
 * under the count, 0.8, had stood for that lag).
 */
const TARGET = 1.0;

/** The aimed polls' budget of one adapter. */
export class PollBudget {
  private credit = 0;

  /** `paceMs`: the plain client's pace (`polling.maxDelayMs`, 10 s); `onSettle` hears each search settled. */
  constructor(
    private readonly paceMs: number,
    private readonly onSettle?: ((settled: { readonly requests: number; readonly plainRequests: number }) => void) | undefined,
  ) {}

  /** The requests a plain client spends on a search whose upstream search lasted `durationMs`: login, query, a poll per pace until complete. */
  plainRequests(durationMs: number): number {
    return 2 + Math.max(0, Math.ceil(durationMs / this.paceMs - 1e-9));
  }

  /** The price of one aimed poll now; `Infinity` (no aim, no probe: the plain client's grid alone) past the overdraft. */
  price(): number {
    if (this.credit < -OVERDRAFT) return Number.POSITIVE_INFINITY;
    return Math.min(MAX_PRICE, Math.max(MIN_PRICE, BASE_PRICE * 2 ** (-this.credit / PRICE_SCALE)));
  }

  /**
   * Whether a search that spent `spent` requests may aim one more poll at `atMs` into it: within twice what the plain
   * client spends on it, by then or by the time the search is expected to end (`expectedEndMs`), when later, keeping
   * what the ticks still to come until then take, and two requests (the poll that completes the search, and a login
   * the session may need).
   */
  mayAim(spent: number, atMs: number, expectedEndMs = 0): boolean {
    const end = Math.max(atMs, expectedEndMs, this.paceMs);
    const ticksLeft = Math.max(0, Math.ceil(end / this.paceMs) - Math.ceil(atMs / this.paceMs));
    return spent + 1 + ticksLeft <= 2 * this.plainRequests(end) - 2;
  }

  /**
   * An aim (or probe) of a learned search was planned: it takes a request from the savings now, so the searches running
   * beside it see it. Returns it, to hand back to {@link settle}. A cold search's aims are not taken (see `settle`).
   */
  aimed(): number {
    this.credit -= 1;
    return 1;
  }

  /**
   * Settles a finished search: it spent `spent` requests on an upstream search that lasted `durationMs`, `taken` of
   * them already taken from the savings when they were aimed. A `cold` search (an airline's time unknown when it
   * began: a new deployment's first searches) learned what the next ones save on: what it spent above the plain
   * client is not owed.
   */
  settle(spent: number, durationMs: number, cold = false, taken = 0): void {
    const plainRequests = this.plainRequests(durationMs);
    const delta = TARGET * plainRequests - spent;
    this.credit = Math.min(CAP, Math.max(-OVERDRAFT - 1, this.credit + taken + (cold ? Math.max(0, delta) : delta)));
    try {
      this.onSettle?.({ requests: spent, plainRequests });
    } catch {
      // A failing listener (a metrics sink) must not change the search.
    }
  }

  /** Requests saved against the plain clients so far (negative: owed). */
  get saved(): number {
    return this.credit;
  }
}
