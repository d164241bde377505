/**
 * The state of one upstream source's breaker, as data a store keeps, and its transitions: closed → (after
 * `failureThreshold` failed requests in a row) open for `cooldownMs` → half-open, one probe let through →
 * closed when it succeeds, open again when it fails.
 *
 * The transitions are two pure functions over a record, so that a store applies them atomically where the
 * record lives: in memory ({@link memoryBreakerStore}) or on a shared Redis (a Lua script doing the same
 * steps, in `@voar/hono-edge/redis`). A resilience library's breaker (cockatiel's `CircuitBreakerPolicy`)
 * keeps its state in the process that runs it, which cannot make every instance of a deployment see one
 * breaker per airline; its transitions are the ones here.
 */

/** Where a breaker stands: `closed` (requests go), `open` (none goes), `half-open` (one probe goes). */
export type BreakerState = "closed" | "open" | "half-open";

/** How a breaker opens and recovers. */
export interface BreakerSettings {
  /** Failed requests in a row (transport errors, timeouts, 5xx, 429) that open it. */
  readonly failureThreshold: number;
  /** How long it stays open before a probe is let through. */
  readonly cooldownMs: number;
  /** How long a probe may stay unanswered before another one is let through (an instance that died with it). */
  readonly probeTimeoutMs: number;
}

/** One breaker as a store keeps it. Absent: closed without failures. */
export interface BreakerRecord {
  readonly state: BreakerState;
  /** Failed requests in a row while closed. */
  readonly failures: number;
  /** When it last opened (ms since the epoch); 0 while closed. */
  readonly openedAt: number;
  /** When the probe now out was let through (half-open only); 0 when none is out. */
  readonly probeAt: number;
}

/** Whether a request may go now. */
export type Admission =
  | { readonly allowed: true; readonly state: BreakerState }
  | { readonly allowed: false; readonly state: BreakerState; readonly retryAfterMs: number };

/** How a request that went ended: the upstream answered, failed as the breaker counts it, or the caller gave up. */
export type RequestOutcome = "success" | "failure" | "cancelled";

/** Where breakers live: one record per source id, changed atomically. */
export interface BreakerStore {
  /** Asks whether a request of `key` may go now (and lets the probe through when the cool-down is over). */
  admit(key: string, settings: BreakerSettings, now: number): Promise<Admission>;
  /** Records how a request that was admitted ended; resolves with the state after it. */
  record(key: string, outcome: RequestOutcome, settings: BreakerSettings, now: number): Promise<BreakerState>;
}

const CLOSED: BreakerRecord = { state: "closed", failures: 0, openedAt: 0, probeAt: 0 };

/** The admission of a request at `now`, and the record after it. */
export const admitTransition = (
  record: BreakerRecord | undefined,
  s: BreakerSettings,
  now: number,
): { readonly record: BreakerRecord; readonly admission: Admission } => {
  const r = record ?? CLOSED;
  if (r.state === "closed") return { record: r, admission: { allowed: true, state: "closed" } };
  if (r.state === "open") {
    const left = r.openedAt + s.cooldownMs - now;
    if (left > 0) return { record: r, admission: { allowed: false, state: "open", retryAfterMs: left } };
    return { record: { ...r, state: "half-open", probeAt: now }, admission: { allowed: true, state: "half-open" } };
  }
  // Half-open: one probe at a time; a probe lost with its instance is replaced after `probeTimeoutMs`.
  const probeLeft = r.probeAt === 0 ? 0 : r.probeAt + s.probeTimeoutMs - now;
  if (probeLeft > 0) return { record: r, admission: { allowed: false, state: "half-open", retryAfterMs: probeLeft } };
  return { record: { ...r, probeAt: now }, admission: { allowed: true, state: "half-open" } };
};

/** The record after an admitted request ended with `outcome` at `now`. */
export const recordTransition = (record: BreakerRecord | undefined, outcome: RequestOutcome, s: BreakerSettings, now: number): BreakerRecord => {
  const r = record ?? CLOSED;
  switch (outcome) {
    case "success":
      return CLOSED;
    case "cancelled":
      // Nothing learnt about the upstream; a probe given up frees the way for the next one.
      return r.state === "half-open" ? { ...r, probeAt: 0 } : r;
    case "failure":
      if (r.state === "half-open") return { state: "open", failures: 0, openedAt: now, probeAt: 0 };
      if (r.state === "open") return r; // a request admitted before it opened: the cool-down runs from the opening
      return r.failures + 1 >= s.failureThreshold ? { state: "open", failures: 0, openedAt: now, probeAt: 0 } : { ...r, failures: r.failures + 1 };
  }
};

/**
 * Breakers in this process's memory: the default, and the fallback of a shared store that cannot answer.
 *
 * @example
 * const store = memoryBreakerStore();
 * await store.admit("upstream:latam", settings, Date.now()); // { allowed: true, state: "closed" }
 */
export const memoryBreakerStore = (): BreakerStore & { readonly records: ReadonlyMap<string, BreakerRecord> } => {
  const records = new Map<string, BreakerRecord>();
  const keep = (key: string, r: BreakerRecord) => (r.state === "closed" && r.failures === 0 ? records.delete(key) : records.set(key, r));
  return {
    records,
    admit(key, settings, now) {
      const { record, admission } = admitTransition(records.get(key), settings, now);
      keep(key, record);
      return Promise.resolve(admission);
    },
    record(key, outcome, settings, now) {
      const next = recordTransition(records.get(key), outcome, settings, now);
      keep(key, next);
      return Promise.resolve(next.state);
    },
  };
};
