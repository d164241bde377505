/**
 * A backend that runs real searches: each new query starts core's `search()` over the given sources (the
 * simulator, usually), and every request answers with the search's latest snapshot in the real deployment's
 * shape. The first answer is `Completed: false` with every provider active; results grow over polls.
 */
import {
  initialSnapshot,
  parseSearchRequest,
  queryKey,
  search,
  snapshotToEnvelope,
  type AirportDirectory,
  type SearchSnapshot,
  type SearchSource,
  type SourcePolicy,
} from "@voar/core";
import { airports as defaultAirports } from "@voar/core/airports";
import type { Subscription } from "rxjs";
import type { ConsultarBackend, ConsultarCall } from "./consultar-backend.js";
import { toRealEnvelope } from "./real-envelope.js";
import { businessErrorBody } from "./real-shapes.js";
import type { UpstreamReply } from "./upstream-reply.js";

/** Options of {@link liveBackend}. */
export interface LiveBackendOptions {
  /** Where offers come from, e.g. `createSimulator().sources`. */
  readonly sources: readonly SearchSource[];
  readonly airports?: AirportDirectory | undefined;
  /** The current instant for request validation. Default `new Date()` (fake timers move it). */
  readonly now?: (() => Date) | undefined;
  /** A search completes with what it has after this long. Default 60 000 ms. */
  readonly deadlineMs?: number | undefined;
  /** `Progresso.ProximaConsultaMs` while running, when hints are on. Default 1000 ms. */
  readonly nextPollMs?: number | undefined;
  /** Send `Progresso` (with the pacing hint); the real deployment does not. Default false. */
  readonly progressHints?: boolean | undefined;
  /** A completed search is kept this long, then the same query starts anew. Default 10 min. */
  readonly ttlMs?: number | undefined;
  /** Source policy of the searches (timeouts, retries). */
  readonly policy?: Partial<SourcePolicy> | undefined;
  /** Prefix of search ids (`LeaseId`). Default `lease-`. */
  readonly idPrefix?: string | undefined;
  /**
   * Whether an all-airlines (Mode A) search shows its flights while it runs. Default true. False models an
   * upstream whose all-airlines search shows nothing until its slowest airline has answered, while its
   * single-airline searches answer as soon as that airline has.
   */
  readonly progressiveModeA?: boolean | undefined;
}

interface LiveSearch {
  readonly id: string;
  readonly tenant: string;
  /** Set synchronously on subscription: `search()` starts with the initial snapshot. */
  readonly latest: { snapshot?: SearchSnapshot; completedAt?: number };
  readonly subscription: Subscription;
}

/** Page size when a request asks for none: the real deployment then sends every group. */
const ALL = 10_000;

const hasPaging = (body: unknown): boolean =>
  typeof body === "object" && body !== null && Object.keys(body).some((k) => /^(numeropagina|quantidadeporpagina)$/i.test(k));

/**
 * A backend whose searches run live over `sources`.
 *
 * @example
 * const upstream = createFakeUpstream({ backend: liveBackend({ sources: createSimulator().sources }) });
 */
export const liveBackend = (options: LiveBackendOptions): ConsultarBackend => {
  const airports = options.airports ?? defaultAirports;
  const ttlMs = options.ttlMs ?? 600_000;
  const byId = new Map<string, LiveSearch>();
  const byKey = new Map<string, LiveSearch>();
  let counter = 0;

  const alive = (s: LiveSearch | undefined): s is LiveSearch =>
    s !== undefined && (s.latest.completedAt === undefined || Date.now() - s.latest.completedAt < ttlMs);

  const start = (key: string, tenant: string, query: SearchSnapshot["query"]): LiveSearch => {
    counter++;
    const id = `${options.idPrefix ?? "lease-"}${counter}`;
    const latest: LiveSearch["latest"] = {};
    const subscription = search(query, options.sources, { ...options.policy, deadlineMs: options.deadlineMs }).subscribe((s) => {
      latest.snapshot = s;
      if (s.completed && latest.completedAt === undefined) latest.completedAt = Date.now();
    });
    const entry: LiveSearch = { id, tenant, latest, subscription };
    byId.set(id, entry);
    byKey.set(key, entry);
    return entry;
  };

  const answer = ({ body, tenant, n }: ConsultarCall): UpstreamReply => {
    const parsed = parseSearchRequest(body, { airports, now: options.now?.() ?? new Date() });
    if (parsed.kind === "invalid") {
      const why = parsed.campos.map((c) => `${c.Campo}: ${c.Mensagem}`).join(" ");
      return { status: 200, json: businessErrorBody(`Requisição inválida. ${why}`) };
    }
    let entry: LiveSearch | undefined;
    if (parsed.kind === "poll") {
      entry = byId.get(parsed.token);
      if (!alive(entry) || entry.tenant !== tenant) return { status: 200, json: businessErrorBody("Consulta não encontrada ou expirada.") };
    } else {
      const key = `${tenant}|${queryKey(parsed.query)}`;
      const known = byKey.get(key);
      entry = alive(known) ? known : start(key, tenant, parsed.query);
    }
    const latest = entry.latest.snapshot;
    if (!latest) throw new Error("a live search has no snapshot: search() emits its initial one on subscription");
    const hold = options.progressiveModeA === false && latest.query.mode.kind === "all-airlines" && !latest.completed;
    const s = hold ? initialSnapshot(latest.query, latest.sources) : latest;
    const paging = hasPaging(body);
    const envelope = snapshotToEnvelope(s, {
      searchId: entry.id,
      requestId: `req-${n}`,
      page: parsed.page,
      pageSize: paging ? parsed.pageSize : ALL,
      airports,
      nextPollMs: options.nextPollMs ?? 1000,
    });
    const real = toRealEnvelope(envelope, {
      activeProviders: latest.sources.filter((p) => p.state === "pending").map((p) => p.name),
      mode: s.query.mode.kind,
      paging,
      progressHints: options.progressHints ?? false,
    });
    return { status: real.status, json: real.json };
  };

  return {
    answer,
    close: () => {
      for (const s of byId.values()) s.subscription.unsubscribe();
      byId.clear();
      byKey.clear();
    },
  };
};
