import type { SourceErrorTag } from "../errors/source-errors.js";

/** Where one source of a search stands. */
export type SourceState = "pending" | "done" | "failed";

/** Progress of one source, as the snapshot carries it. */
export interface SourceProgress {
  readonly id: string;
  readonly name: string;
  readonly state: SourceState;
  /** Offers received from this source so far (after de-duplication by offer id). */
  readonly items: number;
  /** Attempts made (1 + retries). */
  readonly attempts: number;
  /** Why it failed; present only when `state` is `failed`. */
  readonly error?: {
    readonly tag: SourceErrorTag | "DeadlineExceeded";
    /** A clean pt-BR sentence: no stack trace, no upstream internals. */
    readonly message: string;
    readonly retryable: boolean;
  } | undefined;
}
