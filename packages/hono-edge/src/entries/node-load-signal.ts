import { monitorEventLoopDelay } from "node:perf_hooks";
import type { LoadSignal } from "../limits/load-signal.js";

/** A {@link LoadSignal} that measures, and how to stop measuring. */
export interface NodeLoadSignal extends LoadSignal {
  /** Stops the measurement (its histogram and its timer). */
  stop(): void;
}

/**
 * The Node event loop's delay, measured by `node:perf_hooks` (`monitorEventLoopDelay`, a libuv timer every
 * 10 ms, off the JavaScript heap): every `windowMs` the mean delay of the window just ended becomes the
 * reading, and the histogram starts over. The mean, not a high percentile: one garbage collection pause is
 * not an overloaded instance, a loop late on every turn for a whole second is. The timer is `unref`ed.
 *
 * @example
 * const load = nodeLoadSignal();
 * const app = createApp({ config, sources, load });
 */
export const nodeLoadSignal = (windowMs = 1_000): NodeLoadSignal => {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let reading = 0;
  const timer = setInterval(() => {
    // The histogram counts from the moment a 10 ms tick was due; what exceeds the tick is the delay.
    reading = histogram.count > 0 ? Math.max(0, histogram.mean / 1e6 - 10) : reading;
    histogram.reset();
  }, windowMs);
  timer.unref();
  return {
    loopDelayMs: () => reading,
    stop() {
      clearInterval(timer);
      histogram.disable();
    },
  };
};
