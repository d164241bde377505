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
  viewKey,
} from "@voar/core";
import type { Context } from "hono";
import type { AppEnv } from "../app/app-env.js";
import type { Clock } from "../clock.js";
import { InvalidRequest, UnknownSearch } from "../errors/service-errors.js";
import { hash53 } from "../http/entity-tag.js";
import { parseJsonText, readBodyText } from "../http/read-body.js";
import type { SearchHub } from "../search/search-hub.js";
import type { SearchRecord } from "../search/session-store.js";
import type { PaganteSettings } from "../settings/pagante-settings.js";
import { BoundedMap } from "../util/bounded-map.js";
import type { WrittenPages } from "./serialized-answer.js";

/** A valid poll (by `Token` / `LeaseId`), as parsed from its body. */
type ParsedPoll = Extract<ParsedRequest, { kind: "poll" }>;

/** Poll bodies remembered, and the longest body that is (a poll is a short body; longer ones are queries). */
const POLL_MEMO = { entries: 2_000, maxChars: 512 } as const;

/**
 * Valid polls by the exact text of their body (and the caller's compat): a client polls by sending the same
 * bytes again and again, and a poll's meaning depends on nothing else (not on the date, unlike a query), so
 * its body is parsed and validated once. Bounded: the least recently used are forgotten.
 */
export const createPollMemo = (): BoundedMap<string, ParsedPoll> => new BoundedMap(POLL_MEMO.entries);

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
  /** Parsed polls by body text (see {@link createPollMemo}). */
  readonly polls: BoundedMap<string, ParsedPoll>;
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
    asked = hash53(`${page}|${viewKey(parsed.view ?? DEFAULT_VIEW)}`);
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
  const memoKey = text.length <= POLL_MEMO.maxChars ? `${compat}\u0000${text}` : undefined;
  let parsed: ParsedRequest | undefined = memoKey === undefined ? undefined : deps.polls.get(memoKey);
  if (!parsed) {
    const result = parseSearchRequest(parseJsonText(text), { airports: deps.airports, now: new Date(deps.clock.now()), compat });
    if (result.kind === "invalid") throw new InvalidRequest(result.campos);
    if (result.kind === "poll" && memoKey !== undefined) deps.polls.set(memoKey, result);
    parsed = result;
  }
  const asked = { page: parsed.page, pageSize: parsed.allResults ? ("all" as const) : parsed.pageSize, view: parsed.view ?? DEFAULT_VIEW, asked: askedOf(parsed) };
  if (parsed.kind === "query") {
    const record = await deps.hub.open(tenant, parsed.query, await deps.pagante.hiddenCashAirlines());
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
