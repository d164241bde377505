import * as z from "zod";

/**
 * Admission control of new work by what the instance can carry (see `limits/admission.ts`): new searches are
 * refused early (429 `LIMITE_EXCEDIDO` with `Retry-After`) while the instance runs as many searches as it may,
 * while its event loop lags or is busy all the time, or while requests wait too long before they are served;
 * new streams while it holds as many as it may. Running searches, their polls and streams are never refused.
 */
export const AdmissionSchema = z.strictObject({
  /**
   * New searches are refused while the event loop's mean delay (over half a second) is at or above this; or at or
   * above half of it while the loop is busy at least 90% of the time. 0 turns every load signal off (the caps below
   * still hold).
   */
  maxLoopDelayMs: z.int().min(0).max(60_000).default(500),
  /** New searches are refused for a second after three requests within a second waited this long before their search could start, the loop busy 90% of the time (0: off). */
  maxQueueMs: z.int().min(0).max(60_000).default(500),
  /** Searches this instance runs at once; a new one beyond it is refused (0: no cap). */
  maxRunningSearches: z.int().min(0).max(1_000_000).default(500),
  /** SSE streams this instance holds open at once; a new one beyond it is refused (0: no cap but `http.maxConnections`). */
  maxStreams: z.int().min(0).max(1_000_000).default(0),
  /** `Retry-After` of such a refusal, in seconds. */
  retryAfterSeconds: z.int().min(1).max(600).default(2),
});
