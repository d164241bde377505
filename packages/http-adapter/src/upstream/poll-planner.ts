/**
 * When to poll an upstream search next, so that each airline's offers show soon after the upstream has them, for
 * about the requests of the plain client the service replaces (log in, send the query, poll every 10 s).
 *
 * Two kinds of polls:
 * - **ticks**, on the plain client's grid (every `paceMs` from the search's start): while an airline is awaited, no
 *   tick goes by without a poll, so nothing shows later than the plain client would show it. A tick is skipped only
 *   when every airline awaited is known to finish later (its learned time puts next to nothing before the tick, and
 *   most of it after): never for an airline whose time is unknown, that is late, or that may hang.
 * - **aims**, between ticks, where an airline's learned time says its offers are likely to come: each is sent when
 *   the share of the awaited airlines' finishing it moves from late to on time (shown within `max(step, 10 %)` of
 *   its time) is worth a request's price, which the search's budget sets.
 * - **probes**: an airline likely to finish before the next tick whose learned time is still vague there (its likely
 *   span wider than the promise allows) is asked at the middle of that span, within the search's cap: each probe
 *   halves the span its answer can lie in, so within a few searches the aims are sharp. Without them, polls on the
 *   grid would only ever tell "between two ticks".
 * An airline never seen is taken as finishing anywhere from half a step to a minute, as likely in each doubling of
 * time: its aims and probes then come as a backoff's polls do, closer together early in the search.
 */
import { PriorTime, type TimeDistribution, type TimeModel } from "./time-model.js";

/** An airline the search still waits for. */
export interface AwaitedAirline {
  /** Its learned time; undefined while it has too few searches behind it. */
  readonly model: TimeModel | undefined;
  /** Whether it brings offers on the route (an airline with none there weighs little in aims; ticks go on). Default true. */
  readonly bringsOffers?: boolean | undefined;
  /** Whether it may be probed (it was not probed in its latest searches: learning has a cost too). Default true. */
  readonly mayProbe?: boolean | undefined;
}

/** What the planner weighs. Times are ms from the upstream search's start. */
export interface PlanInput {
  /** Now. */
  readonly now: number;
  /** When the latest request left (the airlines awaited were running then). */
  readonly lastSentAt: number;
  readonly awaited: readonly AwaitedAirline[];
  /** The plain client's pace: its polls come every this long (`polling.maxDelayMs`, 10 s). */
  readonly paceMs: number;
  /** The polling's first step (`polling.initialDelayMs`, 1 s): the unit of the planner's own spans. */
  readonly stepMs: number;
  /** Whether any offer came yet. */
  readonly anyOffers: boolean;
  /**
   * The price of one aimed poll: the share of an airline's finishing (summed over the airlines awaited) it must
   * bring on time to be sent. Set by the search's budget; `Infinity`: no aim.
   */
  readonly price: number;
  /** Whether one more aimed poll, sent at the given time, stays within the search's cap. */
  readonly mayAim: (at: number) => boolean;
}

/** The next poll. */
export interface Plan {
  /** When, in ms from the search's start. */
  readonly at: number;
  readonly kind: "tick" | "aim" | "probe";
  /** For a probe: the index (in `awaited`) of the airline probed. */
  readonly probed?: number | undefined;
}

/**
 * A poll aimed at a time goes this much after it: 300 ms, room for the queues and timers between here and an upstream
 * under load (an aim that arrives a little early costs a request and shows the airline at the next poll).
 */
export const AIM_AFTER_STEPS = 0.3;
/** A tick goes this much after the plain client's: 100 ms. */
const TICK_AFTER_STEPS = 0.1;
/** A poll sent within this much before a tick covers the tick: 1.5 s (what finishes in between is seen at the next poll). */
const TICK_SLACK_STEPS = 1.5;
/** Shortest wait after a poll: 250 ms. */
const MIN_WAIT_STEPS = 0.25;
/** The aims are weighed on this grid: 250 ms. */
const GRID_STEPS = 0.25;
/** A tick is skipped only when all awaited airlines together have less than this chance to finish before it. */
const SKIP_CHANCE = 0.02;
/** ...before the time by which this share of an airline's searches finished... */
const EARLIEST_SHARE = 0.02;
/** ...and each has at least this chance to finish, later (not hang). */
const LATER_CHANCE = 0.6;
/** An airline never seen finishes anywhere within these many steps, as likely in each doubling. */
const PRIOR_STEPS = [0.5, 60] as const;
const priors = new Map<number, PriorTime>();
const priorOf = (stepMs: number): PriorTime => {
  let prior = priors.get(stepMs);
  if (!prior) priors.set(stepMs, (prior = new PriorTime(PRIOR_STEPS[0] * stepMs, PRIOR_STEPS[1] * stepMs)));
  return prior;
};
/** Aims worth at least this share of the best one count as as good (the latest of them goes). */
const NEAR_BEST = 0.95;
/** An airline never seen weighs this much in aims: its time is a guess (probes learn it). */
const UNKNOWN_WEIGHT = 0.5;
/** An airline bringing no offers on the route weighs this much in aims. */
const NO_OFFERS_WEIGHT = 0.2;
/** A probe is sent for an airline with at least this chance to finish before the next tick... */
const PROBE_CHANCE = 0.3;
/** ...whose time there lies in a span the searches could not narrow, wider than this many times the promise. */
const PROBE_SPREAD = 1;

/** The lateness the promise allows for an airline done at `t` ms: a step, or a tenth of its time. */
export const allowedLateness = (t: number, stepMs: number): number => Math.max(stepMs, t / 10);

/** The plain client's polls are at k * paceMs; the first tick not covered by a poll sent at `lastSentAt`. */
const nextTick = (lastSentAt: number, paceMs: number, stepMs: number): number =>
  (Math.floor((lastSentAt + TICK_SLACK_STEPS * stepMs) / paceMs) + 1) * paceMs;

/**
 * Whether the tick at `tick` may go by: every airline awaited is known to finish after it, with room. The learned
 * time of an airline is a list of the spans its searches finished in, with gaps between them where no search happened
 * to finish: a gap says nothing, so only the time before the earliest finishing seen counts (an airline that finishes
 * from 40 s on lets the ticks before 40 s go, one that finishes anywhere from 5 s to 40 s lets none go after 5 s).
 */
const skippable = (awaited: readonly AwaitedAirline[], from: number, tick: number, notBefore: number): boolean => {
  let before = 0;
  for (const a of awaited) {
    if (!a.model) return false;
    const earliest = a.model.quantile(EARLIEST_SHARE);
    if (earliest === undefined || tick > earliest) return false;
    before += a.model.doneWithin(from, tick, notBefore);
    if (a.model.doneWithin(tick, a.model.horizonMs, notBefore) < LATER_CHANCE) return false;
  }
  return before < SKIP_CHANCE;
};

/**
 * What a poll at `aim` brings against waiting for `tick`: `gain`, the chance of the awaited airlines' finishing it
 * brings on time (done in (`from`, `aim`], late at the tick and on time at the aim); `saved`, the lateness it saves,
 * in units of the lateness allowed, over all it catches.
 */
const valueOf = (awaited: readonly AwaitedAirline[], from: number, aim: number, tick: number, notBefore: number, stepMs: number): { gain: number; saved: number } => {
  const grid = GRID_STEPS * stepMs;
  let gain = 0;
  let saved = 0;
  for (const a of awaited) {
    const model: TimeDistribution = a.model ?? priorOf(stepMs);
    const weight = (a.bringsOffers === false ? NO_OFFERS_WEIGHT : 1) * (a.model ? 1 : UNKNOWN_WEIGHT);
    for (let t = from; t < aim; t += grid) {
      const to = Math.min(aim, t + grid);
      const mid = (t + to) / 2;
      const allowed = allowedLateness(mid, stepMs);
      const chance = weight * model.doneWithin(t, to, notBefore);
      if (tick - mid > allowed && aim - mid <= allowed) gain += chance;
      saved += (chance * (tick - aim)) / allowed;
    }
  }
  return { gain, saved };
};

/**
 * Where to probe: the middle of the widest span the estimate cannot see into before `tick`, of the airline most likely
 * to finish there, when that span is wider than the promise allows at its middle (so that an aim could not be sharp).
 */
const probeOf = (awaited: readonly AwaitedAirline[], earliest: number, tick: number, notBefore: number, stepMs: number): { at: number; index: number } | undefined => {
  let best: { at: number; index: number; chance: number } | undefined;
  for (const [index, a] of awaited.entries()) {
    if (a.bringsOffers === false || a.mayProbe === false) continue;
    const model: TimeDistribution = a.model ?? priorOf(stepMs);
    const chance = model.doneWithin(notBefore, tick, notBefore);
    if (chance < PROBE_CHANCE || (best && chance <= best.chance)) continue;
    const span = model.vagueSpan(notBefore, tick);
    if (!span) continue;
    const middle = model.timeWithin(span.from, span.to, 0.5) ?? (span.from + span.to) / 2;
    if (span.to - span.from <= PROBE_SPREAD * allowedLateness(middle, stepMs) || middle <= earliest || middle >= tick - MIN_WAIT_STEPS * stepMs) continue;
    best = { at: middle, index, chance };
  }
  return best;
};

/**
 * The next poll of an upstream search.
 *
 * @example
 * planNextPoll({ now: 1_000, lastSentAt: 900, awaited: [{ model: azulAt4s }], paceMs: 10_000, stepMs: 1_000, anyOffers: true, price: 0.3, mayAim: () => true });
 * // { at: 4_100, kind: "aim" }: Azul usually answers at 4 s; waiting for the tick at 10 s would show it 6 s late
 */
export const planNextPoll = (input: PlanInput): Plan => {
  const { now, lastSentAt, awaited, paceMs, stepMs } = input;
  const earliest = now + MIN_WAIT_STEPS * stepMs;
  const at = (t: number, kind: Plan["kind"]): Plan => ({ at: Math.max(earliest, t), kind });

  // Nothing learned and nothing shown yet: the first poll after the query goes within a step, so the first airline's
  // flights show within a second or two of its answer (as a backoff's first step would).
  const first = !input.anyOffers && lastSentAt < stepMs && awaited.some((a) => !a.model) ? lastSentAt + stepMs : Number.POSITIVE_INFINITY;
  // The first tick that must be polled: ticks are skipped while every airline is known to come later.
  const horizon = Math.max(...awaited.map((a) => a.model?.horizonMs ?? 0), nextTick(lastSentAt, paceMs, stepMs));
  let tick = nextTick(lastSentAt, paceMs, stepMs);
  while (tick < horizon && skippable(awaited, lastSentAt, tick + stepMs, lastSentAt)) tick += paceMs;
  const tickAt = tick + TICK_AFTER_STEPS * stepMs;

  // The best aim before that tick, if it is worth its price: of aims bringing about as much on time, the one that
  // saves the most lateness (just after a sharp time; at the end of a vague span, so its end is caught too).
  const grid = GRID_STEPS * stepMs;
  const aims: { at: number; gain: number; saved: number }[] = [];
  for (let aim = Math.ceil(earliest / grid) * grid; aim < tick; aim += grid) aims.push({ at: aim, ...valueOf(awaited, lastSentAt, aim, tickAt, lastSentAt, stepMs) });
  const most = Math.max(0, ...aims.map((a) => a.gain));
  const best = aims.filter((a) => a.gain >= NEAR_BEST * most).reduce<(typeof aims)[number] | undefined>((b, a) => (!b || a.saved > b.saved ? a : b), undefined);
  const aim = best && best.gain >= input.price ? best.at + AIM_AFTER_STEPS * stepMs : undefined;
  // A probe first, where an airline likely before the tick is still vague: the aim after it is then sharper.
  const probe = Number.isFinite(input.price) ? probeOf(awaited, earliest, tick, lastSentAt, stepMs) : undefined;
  if (probe !== undefined && probe.at < first && (aim === undefined || probe.at < aim) && input.mayAim(probe.at)) return { ...at(probe.at, "probe"), probed: probe.index };
  if (aim !== undefined && aim < first && input.mayAim(aim)) return at(aim, "aim");
  if (first < tickAt) return at(first, "aim");
  return at(tickAt, "tick");
};
