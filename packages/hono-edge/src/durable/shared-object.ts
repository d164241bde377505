/**
 * What the search objects and isolates of a Worker deployment share, in Durable Objects of their own (the
 * `SHARED` binding, class `SharedObject`): one object per cached answer (account, airline, query), one per
 * airline's breaker, one per rate limit's bucket (budget and key), and one holding the Pagante switch, each named
 * by the deployment's fingerprint, what it holds and its key; and one holding what the upstream adapter learned of the
 * upstream's pace (each airline's times and yields per route, as short lists). A Worker's isolates and search objects share no
 * memory: without them, ten agencies asking one route would make ten upstream searches, every new search would
 * ask an airline that is down again, rate limits would count per isolate and the switch would change one isolate.
 *
 * An object keeps what it holds in its storage (it outlives the object's eviction from memory) and deletes it when
 * it expires (an alarm). A request's steps are storage reads and writes only, so the runtime's input gate runs one
 * request's read-modify-write before the next: a breaker's transitions are atomic, as the Redis scripts make them
 * on Node. Runtime-neutral: Web APIs only.
 */
import { admitTransition, recordTransition, type BreakerRecord, type BreakerSettings, type PacingEntry, type RequestOutcome } from "@voar/http-adapter/fetch";
import type { Clock } from "../clock.js";
import type { CachedAnswer } from "../sources/answer-store.js";
import { bucketExpiry, holdsPagante, paganteStep, rateStep, type PaganteRequest, type RateRequest } from "./shared-settings-state.js";
import type { DurableObjectState } from "./workers-types.js";

/** Characters per stored chunk of an answer: at most 3 UTF-8 bytes each, under the 128 KiB of a value. */
const CHUNK_CHARS = 40_000;
/** Chunks of one answer: one atomic write (128 entries, the meta among them). */
const MAX_CHUNKS = 120;
const META = "a:meta";
const BREAKER = "b:record";
/** The pacing lists: `p:<list>`, each `{ values, at }`, forgotten a week after their last write. */
const PACING = "p:";
const PACING_TTL_MS = 7 * 24 * 3_600_000;
const chunkKey = (i: number) => `a:c${String(i).padStart(4, "0")}`;

interface AnswerMeta {
  readonly expiresAt: number;
  readonly chunks: number;
}

interface StoredBreaker {
  readonly record: BreakerRecord;
  readonly expiresAt: number;
}

/** The requests of the stores (`shared-stores.ts`), by path. */
export interface AnswerPut {
  readonly answer: CachedAnswer;
  readonly ttlMs: number;
}
export interface BreakerAdmit {
  readonly settings: BreakerSettings;
  readonly now: number;
}
export interface BreakerOutcome extends BreakerAdmit {
  readonly outcome: RequestOutcome;
}
export interface PacingPush {
  readonly entries: readonly PacingEntry[];
}
export interface PacingRead {
  readonly keys: readonly string[];
}

interface StoredList {
  readonly values: readonly string[];
  readonly at: number;
}

/** How long a breaker's record outlives its last change: past its cool-down and probe, as on Redis. */
const breakerTtl = (s: BreakerSettings) => 2 * (s.cooldownMs + s.probeTimeoutMs) + 60_000;

/** The object's work, apart from the runtime's class (see `entries/workerd.ts`), so tests drive it with a memory storage. */
export class SharedObjectCore {
  constructor(
    private readonly state: DurableObjectState,
    private readonly clock: Clock,
  ) {}

  /**
   * `GET /answer`: the answer (200 JSON) or 404 when none or expired; `PUT /answer` an {@link AnswerPut}: kept
   * until its TTL (413 when too large to keep). `POST /breaker/admit` a {@link BreakerAdmit}: the adapter's
   * `Admission`; `POST /breaker/record` a {@link BreakerOutcome}: `{ state }` after it. `POST /rate` a
   * `RateRequest`: the bucket's `RateDecision`; `POST /pagante` a `PaganteRequest`: a `PaganteReply`.
   */
  async fetch(request: Request): Promise<Response> {
    const route = `${request.method} ${new URL(request.url).pathname}`;
    if (route === "GET /answer") {
      const text = await this.readAnswer();
      return text === undefined ? new Response(null, { status: 404 }) : new Response(text, { headers: { "content-type": "application/json" } });
    }
    if (route === "PUT /answer") return new Response(null, { status: (await this.writeAnswer((await request.json()) as AnswerPut)) ? 204 : 413 });
    if (route === "POST /breaker/admit") {
      const { settings, now } = (await request.json()) as BreakerAdmit;
      const before = await this.breaker(now);
      const { record, admission } = admitTransition(before, settings, now);
      if (record !== before) await this.keepBreaker(record, settings, now);
      return Response.json(admission);
    }
    if (route === "POST /breaker/record") {
      const { outcome, settings, now } = (await request.json()) as BreakerOutcome;
      const record = recordTransition(await this.breaker(now), outcome, settings, now);
      await this.keepBreaker(record, settings, now);
      return Response.json({ state: record.state });
    }
    if (route === "POST /rate") {
      const { decision, expiresAt } = await rateStep(this.state.storage, (await request.json()) as RateRequest);
      if (expiresAt !== undefined) await this.state.storage.setAlarm(expiresAt);
      return Response.json(decision);
    }
    if (route === "POST /pagante") return Response.json(await paganteStep(this.state.storage, (await request.json()) as PaganteRequest));
    if (route === "POST /pacing/push") {
      await this.pushPacing((await request.json()) as PacingPush);
      return new Response(null, { status: 204 });
    }
    if (route === "POST /pacing/read") {
      const { keys } = (await request.json()) as PacingRead;
      const stored = await this.state.storage.list<StoredList>({ prefix: PACING });
      return Response.json(keys.map((k) => stored.get(`${PACING}${k}`)?.values ?? []));
    }
    return new Response(null, { status: 404 });
  }

  /** At the expiry of what it holds: gone (a later write moved the alarm, so an early call keeps it). The Pagante switch stays. */
  async alarm(): Promise<void> {
    const stored = await this.state.storage.list<unknown>({ prefix: "" });
    if (holdsPagante(stored)) return;
    if ([...stored.keys()].some((k) => k.startsWith(PACING))) return this.forgetPacing(stored as Map<string, StoredList>);
    const expiresAt = Math.max((stored.get(META) as AnswerMeta | undefined)?.expiresAt ?? 0, (stored.get(BREAKER) as StoredBreaker | undefined)?.expiresAt ?? 0, bucketExpiry(stored) ?? 0);
    if (expiresAt > this.clock.now()) return this.state.storage.setAlarm(expiresAt);
    await this.clear([...stored.keys()]);
  }

  private async readAnswer(): Promise<string | undefined> {
    const stored = await this.state.storage.list<unknown>({ prefix: "a:" });
    const meta = stored.get(META) as AnswerMeta | undefined;
    if (!meta || meta.expiresAt <= this.clock.now()) return undefined;
    let text = "";
    for (let i = 0; i < meta.chunks; i++) {
      const chunk = stored.get(chunkKey(i));
      if (typeof chunk !== "string") return undefined; // never half an answer
      text += chunk;
    }
    return text;
  }

  private async writeAnswer({ answer, ttlMs }: AnswerPut): Promise<boolean> {
    const text = JSON.stringify(answer);
    const chunks = Math.max(1, Math.ceil(text.length / CHUNK_CHARS));
    if (chunks > MAX_CHUNKS || !(ttlMs > 0)) return false;
    const before = await this.state.storage.list<unknown>({ prefix: "a:" });
    const meta: AnswerMeta = { expiresAt: this.clock.now() + ttlMs, chunks };
    const entries: Record<string, unknown> = { [META]: meta };
    for (let i = 0; i < chunks; i++) entries[chunkKey(i)] = text.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS);
    await this.state.storage.put(entries);
    await this.clear([...before.keys()].filter((k) => !(k in entries)));
    await this.state.storage.setAlarm(meta.expiresAt);
    return true;
  }

  /** The breaker's record, unless it expired (a breaker closed without failures, or long left alone). */
  private async breaker(now: number): Promise<BreakerRecord | undefined> {
    const stored = (await this.state.storage.list<StoredBreaker>({ prefix: BREAKER })).get(BREAKER);
    return stored && stored.expiresAt > now ? stored.record : undefined;
  }

  private async keepBreaker(record: BreakerRecord, settings: BreakerSettings, now: number): Promise<void> {
    if (record.state === "closed" && record.failures === 0) {
      await this.state.storage.delete([BREAKER]);
      return;
    }
    const stored: StoredBreaker = { record, expiresAt: now + breakerTtl(settings) };
    await this.state.storage.put({ [BREAKER]: stored });
    await this.state.storage.setAlarm(stored.expiresAt);
  }

  private async pushPacing({ entries }: PacingPush): Promise<void> {
    const keys = [...new Set(entries.map((e) => `${PACING}${e.key}`))];
    const stored = await this.state.storage.list<StoredList>({ prefix: PACING });
    const now = this.clock.now();
    const next: Record<string, StoredList> = {};
    for (const e of entries) {
      const k = `${PACING}${e.key}`;
      const values = [e.value, ...(next[k]?.values ?? stored.get(k)?.values ?? [])].slice(0, e.max);
      next[k] = { values, at: now };
    }
    for (let i = 0; i < keys.length; i += 128) await this.state.storage.put(Object.fromEntries(keys.slice(i, i + 128).map((k) => [k, next[k]!])));
    await this.state.storage.setAlarm(now + PACING_TTL_MS);
  }

  /** Lists not written for a week are forgotten (routes nobody searches any more); the alarm comes back for the others. */
  private async forgetPacing(stored: Map<string, StoredList>): Promise<void> {
    const now = this.clock.now();
    const stale = [...stored].filter(([k, v]) => k.startsWith(PACING) && v.at + PACING_TTL_MS <= now).map(([k]) => k);
    await this.clear(stale);
    const oldest = Math.min(...[...stored].filter(([k, v]) => k.startsWith(PACING) && v.at + PACING_TTL_MS > now).map(([, v]) => v.at));
    if (Number.isFinite(oldest)) await this.state.storage.setAlarm(oldest + PACING_TTL_MS);
  }

  private async clear(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 128) await this.state.storage.delete(keys.slice(i, i + 128));
  }
}
