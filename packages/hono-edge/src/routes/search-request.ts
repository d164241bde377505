import {
  DEFAULT_VIEW,
  parseSearchRequest,
  snapshotToEnvelope,
  type AirportDirectory,
  type ParsedRequest,
  type ResultView,
  type SearchFailure,
  type SearchSnapshot,
  type SearchSuccess,
  todayInSaoPaulo,
  viewKey,
} from "@voar/core";
import type { Context } from "hono";
import type { AppEnv } from "../app/app-env.js";
import type { Clock } from "../clock.js";
import { InvalidRequest, UnknownSearch } from "../errors/service-errors.js";
import { hashText } from "../http/entity-tag.js";
import { parseJsonText, readBodyText } from "../http/read-body.js";
import type { SearchHub } from "../search/search-hub.js";
import type { SearchRecord } from "../search/session-store.js";
import type { PaganteSettings } from "../settings/pagante-settings.js";
import { BoundedMap } from "../util/bounded-map.js";
import type { WrittenPages } from "./serialized-answer.js";

/** Bodies remembered, and the longest body that is (queries and polls are short; longer bodies are parsed each time). */
const REQUEST_MEMO = { entries: 2_000, maxChars: 512 } as const;

/**
 * Valid requests by the caller's compat, today's date in São Paulo and the exact text of their body. A client
 * polls by sending the same bytes again and again: a `Token`, or (clients of the legacy API, as the spec allows)
 * the query itself until `Completed`. What a body means depends on nothing else: core's validation reads the
 * clock only for today's date (a past `Ida`, the 365-day window), so a body is parsed and validated once a day,
 * and at midnight in São Paulo the key changes and the body is judged again (a date now past is refused).
 * Bounded: the least recently used are forgotten.
 */
export const createRequestMemo = (): BoundedMap<string, ParsedRequest> => new BoundedMap(REQUEST_MEMO.entries);

/** What the search routes share. */
export interface SearchRouteDeps {
  readonly hub: SearchHub;
  readonly airports: AirportDirectory;
  readonly clock: Clock;
  readonly pagante: PaganteSettings;
  readonly bodyLimitBytes: number;
  /** `Progresso.ProximaConsultaMs` while a search runs. */
  readonly pollHintMs: number;
  /** Written answers kept for the next polls (see `WrittenPages`). */
  readonly pages: WrittenPages;
  /** Parsed requests by compat, day and body text (see {@link createRequestMemo}). */
  readonly requests: BoundedMap<string, ParsedRequest>;
}

/** A search request resolved to its search and the page asked. */
export interface ResolvedSearch {
  readonly record: SearchRecord;
  readonly page: number;
  /** `"all"`: the whole result in one answer (a legacy client that asked no page). */
  readonly pageSize: number | "all";
  /** Mode A filters and order asked (`Filtros`, `Ordenacao`): applied to the whole result, in polls and SSE alike. */
  readonly view: ResultView;
  /** What was asked (page, page size, view) as one short key: the same request asks the same answer. */
  readonly asked: string;
}

/** {@link ResolvedSearch.asked} of a parsed request, computed once per parsed object (a memoized poll's is reused). */
const askedKeys = new WeakMap<ParsedRequest, string>();
const askedOf = (parsed: ParsedRequest): string => {
  let asked = askedKeys.get(parsed);
  if (asked === undefined) {
    // The whole result ("all") is one answer whatever page came with it; filters and order make another answer.
    const page = parsed.allResults ? "all" : `${parsed.page}|${parsed.pageSize}`;
    asked = hashText(`${page}|${viewKey(parsed.view ?? DEFAULT_VIEW)}`);
    askedKeys.set(parsed, asked);
  }
  return asked;
};

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
  const text = await readBodyText(c.req.raw, deps.bodyLimitBytes);
  const { tenant, compat } = c.get("principal");
  const now = new Date(deps.clock.now());
  const memoKey = text.length <= REQUEST_MEMO.maxChars ? `${compat}\u0000${todayInSaoPaulo(now)}\u0000${text}` : undefined;
  let parsed: ParsedRequest | undefined = memoKey === undefined ? undefined : deps.requests.get(memoKey);
  if (!parsed) {
    const result = parseSearchRequest(parseJsonText(text), { airports: deps.airports, now, compat });
    if (result.kind === "invalid") throw new InvalidRequest(result.campos);
    if (memoKey !== undefined) deps.requests.set(memoKey, result);
    parsed = result;
  }
  const asked = { page: parsed.page, pageSize: parsed.allResults ? ("all" as const) : parsed.pageSize, view: parsed.view ?? DEFAULT_VIEW, asked: askedOf(parsed) };
  if (parsed.kind === "query") {
    const record = await deps.hub.open(tenant, parsed.query, await deps.pagante.hiddenCashAirlines(), c.get("trace"), c.get("receivedAt"));
    return { record, ...asked };
  }
  const record = await deps.hub.find(tenant, parsed.token);
  if (!record) throw new UnknownSearch(pollField(parseJsonText(text)));
  return { record, ...asked };
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
