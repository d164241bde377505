import type { AirportDirectory } from "../domain/airport.js";
import type { SearchQuery } from "../query/query.js";
import type { OfferInterner } from "./offer-interner.js";

/** What the reader needs besides the answer itself. */
export interface ReadContext {
  /** Airports, for the time zones that durations depend on. */
  readonly airports: AirportDirectory;
  /** Id of the source the answer came from; prefixes every offer id. */
  readonly sourceId: string;
  /** The query asked, when known: passenger counts when the answer does not repeat them. */
  readonly query?: SearchQuery | undefined;
  /**
   * Where the offers' repeated texts and values are kept, shared by every answer read with it (one per
   * search: each poll repeats the last one's texts). Without it, each answer is read with a table of its own.
   */
  readonly interner?: OfferInterner | undefined;
}
