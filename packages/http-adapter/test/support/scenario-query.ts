import { parseSearchRequest, type SearchQuery } from "@voar/core";
import { airports } from "@voar/core/airports";
import { SCENARIO_EPOCH, type Fixture } from "@voar/testing";

/** The query a fixture was recorded for, parsed as the upstream parsed it. */
export const queryOf = (fixture: Fixture): SearchQuery => {
  const parsed = parseSearchRequest(fixture.query, { airports, now: new Date(SCENARIO_EPOCH) });
  if (parsed.kind !== "query") throw new Error(`fixture ${fixture.scenario} has no search query`);
  return parsed.query;
};
