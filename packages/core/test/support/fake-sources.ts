import type { Offer } from "../../src/domain/offer.js";
import type { SearchSource } from "../../src/engine/source.js";

/** A step of a scripted source: wait, then yield offers or throw. */
export type Step = { readonly afterMs: number } & ({ readonly offers: readonly Offer[] } | { readonly fail: unknown });

/** A record of what a scripted source saw, for assertions. */
export interface SourceLog {
  calls: number;
  aborted: number;
}

/** Sleeps on the global timers (faked in tests), rejecting when the signal aborts. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });

/**
 * A source that plays a script per attempt: `attempts[0]` the first time it is called, `attempts[1]` on
 * the first retry, and so on (the last script repeats).
 */
export const scriptedSource = (
  id: string,
  attempts: readonly (readonly Step[])[],
  kind: "airline" | "ota" = "airline",
  airlineId?: number,
): SearchSource & { log: SourceLog } => {
  const log: SourceLog = { calls: 0, aborted: 0 };
  return {
    id,
    name: id.toUpperCase(),
    kind,
    airlineId,
    log,
    async *search(_query, signal) {
      const script = attempts[Math.min(log.calls, attempts.length - 1)] ?? [];
      log.calls++;
      signal.addEventListener("abort", () => log.aborted++, { once: true });
      for (const step of script) {
        await sleep(step.afterMs, signal);
        if ("fail" in step) throw step.fail;
        yield step.offers;
      }
    },
  };
};
