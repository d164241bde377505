/**
 * How busy this instance is, as numbers any runtime can give: the delay of its event loop and how much of the
 * time it is busy. The Node entry measures them (`node:perf_hooks`, see `entries/node-load-signal.ts`) and
 * hands them to the app; runtimes that do not measure give none, and nothing is judged by them there.
 *
 * Its reader is admission control (an instance whose loop lags or never idles sheds new searches, see
 * `admission.ts`). Redis's availability is judged apart, by probes of its own (`redis/store-guard.ts`).
 */
export interface LoadSignal {
  /**
   * The event loop's recent delay in ms: how late, on average over the last half second or so, a timer
   * fired against when it was due. Near 0 on an idle instance; hundreds of ms on one saturated with work.
   */
  loopDelayMs(): number;
  /** The share of the recent time (0 to 1) the event loop was busy rather than waiting for I/O. Absent: unknown. */
  utilization?(): number;
}
