/**
 * One upstream search as the batches of a core source: send the query, then poll with the `LeaseId` (or
 * `Token`) the upstream hands out, or the query again, until `Completed`; each poll's new offers are one
 * batch. Waits follow the backoff or the upstream's pace; polls and time are capped. A failed poll is
 * retried a few times in a row (the upstream's search lives on; nothing is lost); beyond that, or for a
 * non-retryable failure, the tagged error goes to the engine, whose retry resumes the held lease.
 *
 * With `learnPace` (the fan-out's sources), polls are also aimed at the time the source's searches usually complete (see `CompletionTimes`). Every offer passed
 * on carries its freshness: seen when its answer came, valid for the context's `offerValidityMs`.
 */
import {
  createOfferInterner,
  MalformedPayload,
  SourceTimeout,
  queryKey,
  retriesWithinSearch,
  toSourceError,
  upstreamFailure,
  type Offer,
  type SearchQuery,
} from "@voar/core";
import { context } from "@opentelemetry/api";
import { rest } from "../internal/rest.js";
import { AnswerReader } from "./answer-reader.js";
import { pagesOf, pollIdOf, readPages } from "./answer-pages.js";
import { pacedDelay } from "./completion-times.js";
import { consultar, type ConsultarResult } from "./consultar.js";
import { OfferChanges } from "./offer-changes.js";
import { answeredFromCache, withFreshness } from "./offer-freshness.js";
import { stableOfferIds } from "./offer-identity.js";
import { pollDelay } from "./poll-pacing.js";
import { LEASE_TTL_MS, type UpstreamContext } from "./upstream-context.js";
import { pagingOf, searchRequestBody } from "./wire-request.js";

/**
 * Runs one attempt of an upstream search for a source, yielding batches of offers (empty ones too: they
 * tell the engine the upstream is alive). Returns when the upstream says `Completed`.
 */
export async function* upstreamSearch(
  ctx: UpstreamContext,
  sourceId: string,
  query: SearchQuery,
  signal: AbortSignal,
  learnPace = false,
): AsyncGenerator<readonly Offer[]> {
  // The caller's trace context (the engine's source attempt), read while the first `next()` runs it, and
  // handed down to every exchange: no asynchronous context manager is needed for the spans to nest.
  const trace = context.active();
  const p = ctx.polling;
  const leaseKey = `${sourceId}|${queryKey(query)}`;
  const held = ctx.leases.get(leaseKey);
  let pollId = held && Date.now() - held.at < LEASE_TTL_MS ? held.leaseId : undefined;
  let resuming = pollId !== undefined;
  const changes = new OfferChanges();
  const started = Date.now();
  // One table for the whole search: each poll's answer repeats the texts and values of the last.
  const interner = createOfferInterner();
  const readContext = { airports: ctx.airports, sourceId, query, interner };
  // Each poll's answer holds everything found so far: the reader reads only what the previous one did not hold.
  const polls = new AnswerReader(readContext);
  const bodyFor = (page: number) => (pollId ? { LeaseId: pollId, ...pagingOf(query, page, ctx.pageSize) } : searchRequestBody(query, page, ctx.pageSize));

  // When the first answer came: the upstream's search exists from then on (a login or a queue before it
  // is not the airline's time). The fan-out's learned pacing counts from here.
  let firstAnswerAt: number | undefined;
  const fresh = (offers: readonly Offer[], json: unknown) => withFreshness(offers, Date.now(), ctx.offerValidityMs, answeredFromCache(json));
  let failures = 0;
  for (let poll = 1; ; poll++) {
    if (poll > p.maxPolls || Date.now() - started > p.maxDurationMs) throw new SourceTimeout({ afterMs: Date.now() - started });
    let result: ConsultarResult;
    // When this poll left: the search was complete by then if its answer says so (the answer's own trip aside).
    const sentAt = Date.now();
    try {
      result = await consultar(ctx, bodyFor(1), signal, trace);
    } catch (error) {
      if (signal.aborted) throw error;
      const tagged = toSourceError(error);
      // A source that declined to ask (breaker open, budget spent) is not asked again either.
      if (!retriesWithinSearch(tagged) || failures >= p.pollRetries) throw tagged;
      failures++;
      const retryAfter = tagged._tag === "RateLimited" ? tagged.retryAfterMs : undefined;
      yield* rest(Math.max(retryAfter ?? 0, pollDelay(p, failures, undefined)), signal, p.heartbeatMs);
      continue;
    }
    failures = 0;
    firstAnswerAt ??= Date.now();
    const answer = polls.read(result.json);
    if (answer instanceof MalformedPayload) throw answer;
    const refused = upstreamFailure(answer);
    if (refused && resuming && refused._tag === "BusinessError") {
      // The held lease is gone (expired or unknown upstream): start the search again with the query. A
      // permission refusal is not about the lease: it fails at once, never repeated.
      ctx.leases.delete(leaseKey);
      pollId = undefined;
      resuming = false;
      continue;
    }
    if (refused) throw refused;
    resuming = false;
    pollId = pollIdOf(result.json, answer) ?? pollId;
    if (pollId) ctx.leases.set(leaseKey, { leaseId: pollId, at: Date.now() });
    if (answer.completed) {
      const pages = await readPages(ctx, bodyFor, pagesOf(result.json), readContext, signal, trace);
      ctx.leases.delete(leaseKey);
      // Complete at its first answer (an upstream's cached search) says nothing of the airline's time.
      if (learnPace && poll > 1) ctx.completions.record(sourceId, Math.max(0, sentAt - firstAnswerAt), poll === 2);
      yield fresh(changes.of(stableOfferIds([...answer.offers, ...pages])), result.json);
      return;
    }
    const changed = changes.of(stableOfferIds(answer.offers));
    yield fresh(changed, result.json);
    const backoff = pollDelay(p, poll, result.paceMs);
    // A rest by choice, told to the engine as it goes: its inactivity timeout is for the upstream's silence.
    yield* rest(learnPace ? pacedDelay(backoff, Date.now() - firstAnswerAt, ctx.completions.expected(sourceId)) : backoff, signal, p.heartbeatMs);
  }
}
