import type { Offer } from "../domain/offer.js";
import type { SourceError } from "../errors/source-errors.js";

/** Something that happened to a search; the reducer folds these into snapshots. */
export type SearchEvent =
  /** A source found offers. */
  | { readonly type: "batch"; readonly sourceId: string; readonly offers: readonly Offer[] }
  /** A source attempt failed with a retryable error; another attempt follows. */
  | { readonly type: "retry"; readonly sourceId: string; readonly attempt: number; readonly error: SourceError }
  /** A source finished. */
  | { readonly type: "done"; readonly sourceId: string }
  /** A source failed for good. */
  | { readonly type: "failed"; readonly sourceId: string; readonly error: SourceError }
  /** The search deadline passed: the search completes with what it has. */
  | { readonly type: "deadline" };
