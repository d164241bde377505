/**
 * Waiting and time limits that end as soon as a signal aborts. Everything waits on `setTimeout`, so fake
 * timers (vitest, @sinonjs/fake-timers) drive it in tests.
 */

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts; nothing is left behind either way. */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    signal.addEventListener("abort", onAbort, { once: true });
  });

/** A signal that aborts when `parent` does, or after `ms` with `onTimeout()` as its reason. Call `done` when finished. */
export const withTimeout = (parent: AbortSignal, ms: number, onTimeout: () => unknown): { signal: AbortSignal; done: () => void } => {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(onTimeout()), ms);
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      parent.removeEventListener("abort", onAbort);
    },
  };
};

/** Waits for a promise, but rejects with the signal's reason as soon as it aborts (the promise runs on). */
export const untilAborted = <T>(promise: Promise<T>, signal: AbortSignal): Promise<T> => {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
};
