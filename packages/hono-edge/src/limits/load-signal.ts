/**
 * How busy this instance is, as a number any runtime can give: the delay of its event loop. The Node entry
 * measures it (`node:perf_hooks` `monitorEventLoopDelay`, see `entries/node-load-signal.ts`) and hands it to
 * the app; runtimes that do not measure it give none, and nothing is judged by it there.
 *
 * Two readers: admission control (an instance whose loop lags sheds new searches, see `admission.ts`) and the
 * Redis guard, which must not take a reply that its own busy loop read late for a Redis that does not answer.
 */
export interface LoadSignal {
  /**
   * The event loop's recent delay in ms: how late, on average over the last second or so, a timer fired
   * against when it was due. Near 0 on an idle instance; hundreds of ms on one saturated with work.
   */
  loopDelayMs(): number;
}
