import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import type { LoadSignal } from "../limits/load-signal.js";

/** A {@link LoadSignal} that measures, and how to stop measuring. */
export interface NodeLoadSignal extends LoadSignal {
  /** Stops the measurement (its histogram and its timer). */
  stop(): void;
}

/**
 * The Node event loop's delay and utilization, measured by `node:perf_hooks` (`monitorEventLoopDelay`, a libuv
 * timer every 10 ms, off the JavaScript heap; `performance.eventLoopUtilization`): every `windowMs` the mean delay
 * and the share of busy time of the window just ended become the readings. The mean, not a high percentile: one
 * garbage collection pause is not an overloaded instance, a loop late on every turn for half a second is.
 * The window is short so that a burst of work is seen before it makes answers take seconds. The timer is `unref`ed.
 *
 * @example
 * const load = nodeLoadSignal();
 * const app = createApp({ config, sources, load });
 */
export const nodeLoadSignal = (windowMs = 500): NodeLoadSignal => {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let delay = 0;
  let busy = 0;
  let since = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    // The histogram counts from the moment a 10 ms tick was due; what exceeds the tick is the delay.
    delay = histogram.count > 0 ? Math.max(0, histogram.mean / 1e6 - 10) : delay;
    histogram.reset();
    const now = performance.eventLoopUtilization();
    busy = performance.eventLoopUtilization(now, since).utilization;
    since = now;
  }, windowMs);
  timer.unref();
  return {
    loopDelayMs: () => delay,
    utilization: () => busy,
    stop() {
      clearInterval(timer);
      histogram.disable();
    },
  };
};
