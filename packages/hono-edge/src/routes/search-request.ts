import {
  DEFAULT_VIEW,
  parseSearchRequest,
  snapshotToEnvelope,
  type AirportDirectory,
  type ResultView,
  type SearchFailure,
  type SearchSnapshot,
  type SearchSuccess,
} from "@voar/core";
import type { Context } from "hono";
import type { AppEnv } from "../app/app-env.js";
import type { Clock } from "../clock.js";
import { InvalidRequest, UnknownSearch } from "../errors/service-errors.js";
import { readJsonBody } from "../http/read-body.js";
import type { SearchHub } from "../search/search-hub.js";
import type { SearchRecord } from "../search/session-store.js";
import type { PaganteSettings } from "../settings/pagante-settings.js";

/** What the search routes share. */
export interface SearchRouteDeps {
  readonly hub: SearchHub;
  readonly airports: AirportDirectory;
  readonly clock: Clock;
  readonly pagante: PaganteSettings;
  readonly bodyLimitBytes: number;
  /** `Progresso.ProximaConsultaMs` while a search runs. */
  readonly pollHintMs: number;
}

/** A search request resolved to its search and the page asked. */
export interface ResolvedSearch {
  readonly record: SearchRecord;
  readonly page: number;
  /** `"all"`: the whole result in one answer (a legacy client that asked no page). */
  readonly pageSize: number | "all";
  /** Mode A filters and order asked (`Filtros`, `Ordenacao`): applied to the whole result, in polls and SSE alike. */
  readonly view: ResultView;
}

/** Which member a poll carried its id in (core reads `Token` first, then `LeaseId`; keys are case-insensitive). */
export const pollField = (body: unknown): "Token" | "LeaseId" => {
  const entries = typeof body === "object" && body !== null ? Object.entries(body) : [];
  const hasToken = entries.some(([k, v]) => k.toLowerCase() === "token" && typeof v === "string" && v.trim() !== "");
  return hasToken ? "Token" : "LeaseId";
};

/**
 * Reads and validates the body of a search request, then starts or joins its search (a query) or finds
 * it (a poll by `Token` / `LeaseId`, within the caller's tenant). The body is read the way the caller's
 * `compat` says (strict for the spec, lenient for clients of the legacy API). Throws the tagged errors of the service.
 */
export const resolveSearch = async (deps: SearchRouteDeps, c: Context<AppEnv>): Promise<ResolvedSearch> => {
  const body = await readJsonBody(c.req.raw, deps.bodyLimitBytes);
  const { tenant, compat } = c.get("principal");
  const parsed = parseSearchRequest(body, { airports: deps.airports, now: new Date(deps.clock.now()), compat });
  if (parsed.kind === "invalid") throw new InvalidRequest(parsed.campos);
  const pageSize = parsed.allResults ? "all" : parsed.pageSize;
  const view = parsed.view ?? DEFAULT_VIEW;
  if (parsed.kind === "query") {
    const record = await deps.hub.open(tenant, parsed.query, await deps.pagante.hiddenCashAirlines());
    return { record, page: parsed.page, pageSize, view };
  }
  const record = await deps.hub.find(tenant, parsed.token);
  if (!record) throw new UnknownSearch(pollField(body));
  return { record, page: parsed.page, pageSize, view };
};

/** The envelope of a snapshot for the page asked: the same for polling and for each SSE event. */
export const envelopeOf = (deps: SearchRouteDeps, s: SearchSnapshot, r: ResolvedSearch, requestId: string): SearchSuccess | SearchFailure =>
  snapshotToEnvelope(s, {
    searchId: r.record.id,
    requestId,
    page: r.page,
    pageSize: r.pageSize,
    airports: deps.airports,
    nextPollMs: deps.pollHintMs,
    view: r.view,
  });
