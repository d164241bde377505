import { hasResults, type SearchSnapshot } from "@voar/core";
import type { ServiceMetrics } from "../telemetry/service-metrics.js";

/** What {@link answerMeter} needs. */
export interface AnswerMeterOptions {
  readonly metrics: ServiceMetrics | undefined;
  /** The clock of the run (ms) and when it started. */
  readonly now: () => number;
  readonly startedAt: number;
  /** Whether the run started the search from nothing (a takeover's first offers are no first result). */
  readonly fresh: boolean;
}

/** Where a source's answer came from: the answer cache when its offers were seen before this run began. */
const originOf = (s: SearchSnapshot, sourceId: string, startedAt: number): "upstream" | "cache" => {
  for (const [, offer] of s.offers) if (offer.sourceId === sourceId) return offer.seenAt !== undefined && offer.seenAt < startedAt ? "cache" : "upstream";
  return "upstream";
};

/**
 * Counts what a run's snapshots tell the metrics: the time to the search's first offer, once, and each source's
 * answer, once, when it is done, from its upstream or the answer cache (so cache hits do not read as fast airlines).
 */
export const answerMeter = (o: AnswerMeterOptions): ((s: SearchSnapshot) => void) => {
  const answered = new Set<string>();
  let firstSeen = false;
  return (s) => {
    if (!o.metrics) return;
    const seconds = (o.now() - o.startedAt) / 1_000;
    if (!firstSeen && o.fresh && hasResults(s)) {
      firstSeen = true;
      o.metrics.firstResult(seconds);
    }
    for (const p of s.sources) {
      if (p.state === "pending" || answered.has(p.id)) continue;
      answered.add(p.id);
      if (p.state === "done") o.metrics.sourceAnswered(p.id, seconds, p.items, p.items > 0 ? originOf(s, p.id, o.startedAt) : "upstream");
    }
  };
};
