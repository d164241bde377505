import type { Unwatch } from "../search/session-store.js";

/** What the guard needs of an ioredis client: its state, its connection events and a PING. */
export interface GuardedClient {
  readonly status: string;
  on(event: "ready" | "close" | "end" | "error", listener: () => void): unknown;
  off(event: "ready" | "close" | "end" | "error", listener: () => void): unknown;
  ping(): Promise<unknown>;
}

/** A connection of the guard's own for its probes: a PING on it waits behind no reply of the command connection. */
export interface ProbeClient {
  readonly status: string;
  ping(): Promise<unknown>;
}

/** Settings of {@link createStoreGuard}. */
export interface StoreGuardOptions {
  /**
   * How long a call may wait before Redis is asked whether it is alive (a probe of the guard's own, sent after
   * half of it) and Redis is declared unavailable if the probe is not answered either (by the other half).
   */
  readonly commandTimeoutMs: number;
  /** How long calls wait for the client's first connection attempt (startup); never once it failed. */
  readonly startupWaitMs: number;
  /** Probes in a row that go unanswered (or calls that fail outright) before the breaker opens. */
  readonly failureThreshold: number;
  /** The least time an open breaker stays open, and the pause between its probes. */
  readonly cooldownMs: number;
  /** `Retry-After` of the `StoreUnavailable` it throws, in seconds. */
  readonly retryAfterSeconds: number;
  /**
   * Where the probes go: a connection of their own (`redis.duplicate()`), so that a PING is answered as soon as
   * Redis answers it, not after the replies this process has not read yet. Default: the guarded client (while
   * the probe connection is not connected too).
   */
  readonly probe?: ProbeClient | undefined;
  /**
   * The longest a call waits while Redis answers its probes (this process reads replies late because its own
   * loop is busy): past it the call alone fails, Redis is not declared unavailable. Default 10 s.
   */
  readonly maxWaitMs?: number | undefined;
}

/** The availability view of one Redis, shared by everything the service does on it. */
export interface StoreGuard {
  /** Runs a call on the client; rejects at once with `StoreUnavailable` while Redis is unreachable or not answering. */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** True while the client is connected and the breaker closed. */
  available(): boolean;
  /** Called on every change of {@link available}. */
  onChange(listener: (available: boolean) => void): Unwatch;
}
