import type { AirportDirectory } from "../../domain/airport.js";
import type { SearchQuery } from "../../domain/query.js";

/** What the reader needs besides the answer itself. */
export interface ReadContext {
  /** Airports, for the time zones that durations depend on. */
  readonly airports: AirportDirectory;
  /** Id of the source the answer came from; prefixes every offer id. */
  readonly sourceId: string;
  /** The query asked, when known: passenger counts when the answer does not repeat them. */
  readonly query?: SearchQuery | undefined;
}
