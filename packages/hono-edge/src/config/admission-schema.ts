import * as z from "zod";

/**
 * Admission control of new searches by the instance's own load (see `limits/admission.ts`): entries that
 * measure their event loop (the Node entry) refuse new searches while it lags, and let them in again once
 * the delay fell below half the limit. Running searches, their polls and streams are never refused for it.
 */
export const AdmissionSchema = z.strictObject({
  /** New searches are refused (429 `LIMITE_EXCEDIDO`) while the event loop's mean delay is at or above this; 0 turns it off. */
  maxLoopDelayMs: z.int().min(0).max(60_000).default(500),
  /** `Retry-After` of such a refusal, in seconds. */
  retryAfterSeconds: z.int().min(1).max(600).default(2),
});
