/**
 * A wait the adapter chose (pacing between polls), told to the engine as it goes. The engine's inactivity
 * timeout (`SourcePolicy.timeoutMs`) is meant for an upstream that stops answering, not for a source that
 * sleeps by choice until an airline is expected to have answered: so a long rest is cut into steps of at most
 * `beatMs`, and an empty batch goes to the engine after each (an empty batch says "alive" and adds nothing).
 * The wait for the upstream's answer itself is not covered: a request left unanswered past the engine's
 * timeout still fails the source.
 */
import { sleep } from "./abortable.js";

/** Default step of a rest: well below the engine's default inactivity timeout (20 s). */
export const DEFAULT_HEARTBEAT_MS = 5_000;

/**
 * Waits `ms` in steps of at most `beatMs`, yielding an empty batch after each step (the last one included,
 * so the engine's timer restarts right before the next request). Rejects with the signal's reason when it aborts.
 *
 * @example
 * for await (const beat of rest(25_000, signal, 5_000)) yield beat; // five empty batches, one every 5 s
 */
export async function* rest<T>(ms: number, signal: AbortSignal, beatMs: number = DEFAULT_HEARTBEAT_MS): AsyncGenerator<readonly T[]> {
  const step = Math.max(1, beatMs);
  for (let left = Math.max(0, ms); ; ) {
    const now = Math.min(left, step);
    await sleep(now, signal);
    left -= now;
    yield [];
    if (left <= 0) return;
  }
}
