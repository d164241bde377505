import { DAY_NOT_SEARCHED, type SearchQuery, type SearchSnapshot } from "@voar/core";
import { withRequestBudgetGroup, type RequestBudgetGroup } from "@voar/http-adapter/fetch";
import { defer, Observable, retry, switchMap, timer } from "rxjs";
import type { Clock } from "../clock.js";
import { InstanceOverloaded } from "../errors/instance-overloaded.js";
import { isStoreUnavailable, SearchCapacityReached } from "../errors/service-errors.js";
import type { SearchHub } from "../search/search-hub.js";
import type { TraceContext } from "../search/run-search.js";
import type { SearchRecord } from "../search/session-store.js";

/** A day that was never searched, and why: the service kept refusing it until the calendar's deadline, or the deadline had passed. */
export class DayNotSearched extends Error {
  readonly _tag = "DayNotSearched";
  constructor(readonly reason: "capacity" | "deadline") {
    super(`day not searched: ${reason}`);
  }
}

/** The sentence a day shows when it could not be searched (never an error's own text). */
export const dayFailureMessage = (e: unknown): string =>
  e instanceof DayNotSearched
    ? e.reason === "capacity"
      ? "O limite de buscas simultâneas ficou cheio até o prazo do calendário; este dia não foi buscado."
      : "O prazo do calendário terminou antes de este dia começar."
    : DAY_NOT_SEARCHED;

/** What {@link daySearchOf} needs. */
export interface DaySearchDeps {
  readonly searches: SearchHub;
  readonly clock: Clock;
  readonly tenant: string;
  readonly hiddenCashAirlines: readonly number[];
  /** Epoch ms after which a day not started yet is given up. */
  readonly deadlineAt: number;
  /** The calendar's budget of upstream requests, attached to each day it starts. */
  readonly budget: RequestBudgetGroup | undefined;
  /** A keep-alive (and lease check of the day's search) after this long without a change. */
  readonly keepAliveMs: number;
  readonly trace?: TraceContext | undefined;
}

/** The day's search by its id, when it is still live; else undefined (a new one is started). */
type Known = (index: number) => string | undefined;

/** Every snapshot of a search, as the store records them, until it completes (see `SearchHub.updates`). */
const follow = (searches: SearchHub, record: SearchRecord, keepAliveMs: number): Observable<SearchSnapshot> =>
  new Observable<SearchSnapshot>((subscriber) => {
    const abort = new AbortController();
    void (async () => {
      for await (const update of searches.updates(record, undefined, keepAliveMs, abort.signal)) if (update.kind === "snapshot") subscriber.next(update.snapshot);
      subscriber.complete();
    })().catch((e: unknown) => subscriber.error(e));
    return () => abort.abort();
  });

/** The longest a refused day waits before asking again. */
const RETRY_MS = 1_000;

/** Whether the service refused a new search for a while (its caps, its load): the day asks again later. */
const refusedForNow = (e: unknown): e is SearchCapacityReached | InstanceOverloaded => e instanceof SearchCapacityReached || e instanceof InstanceOverloaded;

/**
 * The day searches of a calendar over the service's searches: each day is an ordinary search of the tenant
 * through the hub (started, or joined when the same search is live: same engine, answer cache, breakers,
 * budgets, Pagante rules), its query carrying the calendar's request budget, followed until it completes.
 * A day whose search already started (`known`) follows it again. A day the service refuses for now (a cap,
 * overload, the store away) asks again after the wait it was told, until the calendar's deadline; `started`
 * hears each new search's id before the day follows it.
 */
export const daySearchOf =
  (d: DaySearchDeps, known: Known, started: (index: number, searchId: string) => Promise<void>) =>
  (query: SearchQuery, index: number): Observable<SearchSnapshot> =>
    defer(async () => {
      const id = known(index);
      const live = id === undefined ? undefined : await d.searches.find(d.tenant, id);
      if (live) return live;
      if (d.clock.now() >= d.deadlineAt) throw new DayNotSearched("deadline");
      const record = await d.searches.open(d.tenant, d.budget ? withRequestBudgetGroup(query, d.budget) : query, d.hiddenCashAirlines, d.trace);
      await started(index, record.id);
      return record;
    }).pipe(
      switchMap((record) => follow(d.searches, record, d.keepAliveMs)),
      retry({
        delay: (e: unknown) => {
          const transient = refusedForNow(e) || isStoreUnavailable(e);
          if (!transient) throw e;
          // A search's place frees when one completes, usually long before the deadline its Retry-After names.
          const waitMs = refusedForNow(e) ? Math.min(e.retryAfterSeconds * 1_000, RETRY_MS) : RETRY_MS;
          if (d.clock.now() + waitMs >= d.deadlineAt) throw refusedForNow(e) ? new DayNotSearched("capacity") : e;
          return timer(waitMs);
        },
      }),
    );
