import { parseSearchRequest, type SearchQuery } from "@voar/core";
import { airports } from "@voar/core/airports";

/** A date `days` from today, as the wire writes it (`YYYY-MM-DD`). */
export const daysAhead = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A query from a wire body, checked by core's parser (a bad body throws with the fields it names). */
export const queryOf = (body: Record<string, unknown>): SearchQuery => {
  const parsed = parseSearchRequest(body, { airports, now: new Date() });
  if (parsed.kind !== "query") throw new Error(`not a query: ${JSON.stringify(parsed)}`);
  return parsed.query;
};
