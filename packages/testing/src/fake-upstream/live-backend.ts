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
import { sleep, type UpstreamReply } from "./upstream-reply.js";

/** What a live search's source did, as the upstream saw it: offers came, or the source finished or failed. */
export interface LiveSourceEvent {
  /** The search's id (its `LeaseId`). */
  readonly searchId: string;
  /** `queryKey` of the search's query (the same for every tenant asking it). */
  readonly query: string;
  readonly tenant: string;
  /** The engine source's id (`latam`, `gol`...). */
  readonly sourceId: string;
  /** `offers`: the source's items grew to `items`; `done`/`failed`: it finished (its last items). */
  readonly kind: "offers" | "done" | "failed";
  /** The source's items so far (offers it gave this search). */
  readonly items: number;
  /** `Date.now()` when the upstream had them. */
  readonly at: number;
}

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
  /**
   * Every search answer (first ask and polls alike) leaves this long after its request came, in ms (a number, or a
   * function drawn per request): a slow upstream. The search itself starts when the request comes; the answer
   * carries what the search has when it leaves. Uses `setTimeout`, so fake timers drive it. Default 0.
   */
  readonly answerDelayMs?: number | (() => number) | undefined;
  /** Told of what each search's sources do, when the upstream has it: to measure how late a client shows each airline. */
  readonly onSourceEvent?: ((event: LiveSourceEvent) => void) | undefined;
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
    const told = options.onSourceEvent;
    const queryText = queryKey(query);
    const subscription = search(query, options.sources, { ...options.policy, deadlineMs: options.deadlineMs }).subscribe((s) => {
      const before = latest.snapshot;
      latest.snapshot = s;
      if (s.completed && latest.completedAt === undefined) latest.completedAt = Date.now();
      if (!told || !before) return;
      for (const p of s.sources) {
        const was = before.sources.find((b) => b.id === p.id);
        const kind = p.state === "done" ? "done" : p.state === "failed" ? "failed" : "offers";
        if (was && was.state === p.state && was.items === p.items) continue;
        told({ searchId: id, query: queryText, tenant, sourceId: p.id, kind, items: p.items, at: Date.now() });
      }
    });
    const entry: LiveSearch = { id, tenant, latest, subscription };
    byId.set(id, entry);
    byKey.set(key, entry);
    return entry;
  };

  const delayOf = (): number => {
    const d = options.answerDelayMs;
    return Math.max(0, (typeof d === "function" ? d() : d) ?? 0);
  };

  const answer = ({ body, tenant, n }: ConsultarCall): UpstreamReply | Promise<UpstreamReply> => {
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
    const delay = delayOf();
    const found = entry;
    // A slow upstream: the search runs from the request on, the answer leaves later with what it has then.
    return delay > 0 ? sleep(delay).then(() => reply(found, body, parsed.page, parsed.pageSize, n)) : reply(found, body, parsed.page, parsed.pageSize, n);
  };

  const reply = (entry: LiveSearch, body: unknown, page: number, pageSize: number, n: number): UpstreamReply => {
    const latest = entry.latest.snapshot;
    if (!latest) throw new Error("a live search has no snapshot: search() emits its initial one on subscription");
    const hold = options.progressiveModeA === false && latest.query.mode.kind === "all-airlines" && !latest.completed;
    const s = hold ? initialSnapshot(latest.query, latest.sources) : latest;
    const paging = hasPaging(body);
    const envelope = snapshotToEnvelope(s, {
      searchId: entry.id,
      requestId: `req-${n}`,
      page,
      pageSize: paging ? pageSize : ALL,
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
