import type { Offer } from "../domain/offer.js";
import { CALENDAR_BUDGET_FAILURE, SOURCE_FAILURE } from "../errors/error-catalogue.js";
import { isRetryable, type SourceError } from "../errors/source-errors.js";
import type { SearchEvent } from "./events.js";
import type { SourceProgress } from "../errors/source-progress.js";
import { indexOffer, unindexOffer } from "./result-index.js";
import type { SearchSnapshot } from "./snapshot.js";

/** Two versions of an offer that a client could not tell apart (an offer seen again is valid longer: that shows). */
const samePrice = (a: Offer, b: Offer): boolean =>
  a.validUntil === b.validUntil &&
  a.total.amount === b.total.amount &&
  a.taxes.amount === b.taxes.amount &&
  a.airlinePrice.amount === b.airlinePrice.amount &&
  a.discount?.percent === b.discount?.percent &&
  a.discount?.amount.amount === b.discount?.amount.amount &&
  a.miles?.pointsAdult === b.miles?.pointsAdult &&
  a.miles?.pointsChild === b.miles?.pointsChild &&
  a.fareToken === b.fareToken;

const updateSource = (
  sources: readonly SourceProgress[],
  id: string,
  f: (p: SourceProgress) => SourceProgress,
): readonly SourceProgress[] | undefined => {
  const i = sources.findIndex((p) => p.id === id);
  if (i < 0) return undefined;
  const next = sources.slice();
  next[i] = f(sources[i]!);
  return next;
};

/** The wait a failure names (a rate limit's `Retry-After`, an open breaker's cool-down), as a progress field. */
const retryAfterOf = (e: SourceError): { retryAfterMs?: number } =>
  (e._tag === "RateLimited" || e._tag === "SourceUnavailable") && e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {};

const allSettled = (sources: readonly SourceProgress[]) => sources.every((p) => p.state !== "pending");

/** Merges a batch: new ids are added, known ids refined, exact repeats ignored. Work is proportional to the batch. */
const mergeBatch = (s: SearchSnapshot, sourceId: string, batch: readonly Offer[]): SearchSnapshot => {
  let { offers, outbound, inbound } = s;
  let added = 0;
  let changed = false;
  // The batch's own nodes: its changes to the sorted orders share one copy of each node they touch.
  const owner = {};
  for (const offer of batch) {
    if (offer.miles === undefined && s.hiddenCashAirlines.has(offer.airlineId)) continue;
    const prior = offers.get(offer.id);
    if (prior && samePrice(prior, offer)) continue;
    const lookup = (id: string) => offers.get(id);
    const outboundDir = offer.itinerary.direction === "outbound";
    if (prior) {
      if (outboundDir) outbound = unindexOffer(outbound, s.grouping, prior, lookup, owner);
      else inbound = unindexOffer(inbound, s.grouping, prior, lookup, owner);
    } else {
      added++;
    }
    offers = offers.set(offer.id, offer, owner);
    if (outboundDir) outbound = indexOffer(outbound, s.grouping, offer, owner);
    else inbound = indexOffer(inbound, s.grouping, offer, owner);
    changed = true;
  }
  const sources = added > 0 ? updateSource(s.sources, sourceId, (p) => ({ ...p, items: p.items + added })) : s.sources;
  if (!changed) return s;
  return { ...s, offers, outbound, inbound, sources: sources ?? s.sources, version: s.version + 1 };
};

/** The catalogue's sentence of a failure (a calendar's budget has its own), and the calendar's scope when it is one. */
const failureSentence = (e: SourceError): { readonly message: string; readonly scope?: "calendar" } =>
  e._tag === "RequestBudgetExhausted" && e.scope === "calendar" ? { message: CALENDAR_BUDGET_FAILURE.mensagem, scope: "calendar" } : { message: SOURCE_FAILURE[e._tag].mensagem };

/**
 * The pure reducer of a search: folds one event into a snapshot. Snapshots only grow: an offer once
 * received is never dropped (a later version of the same id may refine its price). Events about unknown
 * sources and events after completion leave the snapshot unchanged.
 */
export const reduce = (s: SearchSnapshot, event: SearchEvent): SearchSnapshot => {
  if (s.completed) return s;
  switch (event.type) {
    case "batch":
      return mergeBatch(s, event.sourceId, event.offers);
    case "retry": {
      const sources = updateSource(s.sources, event.sourceId, (p) => ({ ...p, attempts: event.attempt + 1 }));
      return sources ? { ...s, sources, version: s.version + 1 } : s;
    }
    case "done":
    case "failed": {
      const sources = updateSource(s.sources, event.sourceId, (p) =>
        p.state !== "pending"
          ? p
          : event.type === "done"
            ? { ...p, state: "done" }
            : {
                ...p,
                state: "failed",
                // The catalogue's sentence, never the error's own message (it may hold upstream text): see `SearchOptions.onSourceError`.
                error: { tag: event.error._tag, retryable: isRetryable(event.error), ...retryAfterOf(event.error), ...failureSentence(event.error) },
              },
      );
      if (!sources) return s;
      const completed = allSettled(sources);
      return { ...s, sources, version: s.version + 1, completed, completion: completed ? "finished" : undefined };
    }
    case "deadline": {
      const sources = s.sources.map(
        (p): SourceProgress =>
          p.state === "pending"
            ? {
                ...p,
                state: "failed",
                error: { tag: "DeadlineExceeded", message: SOURCE_FAILURE.DeadlineExceeded.mensagem, retryable: true },
              }
            : p,
      );
      return { ...s, sources, version: s.version + 1, completed: true, completion: "deadline" };
    }
  }
};
