/** The time source of the service: token expiry, rate limits, search TTLs, durations in logs, "today". */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The wall clock (`Date.now`). Vitest fake timers move it too. */
export const systemClock: Clock = { now: () => Date.now() };
