/**
 * The rate limits and the Pagante switch of a Worker deployment, shared by every isolate through its shared
 * objects (see `shared-settings-state.ts`): each budget's key a bucket object (`<deployment>|rate|<budget>|<key>`),
 * the switch one object (`<deployment>|pagante`). Without them each isolate would count its own requests and keep
 * its own switch, so a limit would hold per isolate and an operator's change would apply at random.
 */
import type { Clock } from "../clock.js";
import { StoreUnavailable } from "../errors/service-errors.js";
import { memoryRateLimiters, type BucketOperation, type RateDecision, type RateLimiterFactory } from "../limits/token-bucket.js";
import { silentLogger, type Logger } from "../logging/logger.js";
import { paganteList, paganteOffIn, type PaganteSettings } from "../settings/pagante-settings.js";
import type { PaganteReply, PaganteRequest, RateRequest } from "./shared-settings-state.js";
import type { DurableObjectNamespace } from "./workers-types.js";

/** Options of {@link durableRateLimiters} and {@link durablePaganteSettings}. */
export interface SharedSettingsOptions {
  /** The `SHARED` binding. */
  readonly namespace: DurableObjectNamespace;
  /** The deployment's fingerprint (`deploymentFingerprint`): another deployment's on the same namespace is never read. */
  readonly deployment: Promise<string> | string;
  readonly clock: Clock;
  /** Where the switches to and from per-isolate fallbacks are reported. Default: nowhere. */
  readonly logger?: Logger | undefined;
}

const ORIGIN = "https://shared.voar.internal";

const call = async <T>(o: SharedSettingsOptions, name: string, path: string, body: unknown): Promise<T> => {
  const object = o.namespace.get(o.namespace.idFromName(`${await o.deployment}|${name}`));
  const res = await object.fetch(new Request(`${ORIGIN}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  if (!res.ok) throw new Error(`shared object: HTTP ${res.status}`);
  return (await res.json()) as T;
};

/**
 * Rate limiters shared by every isolate: each operation is one request to the bucket's object. While the objects
 * cannot answer, the isolate's own buckets count instead (logged once each way, `rate_limit.fallback` and
 * `rate_limit.shared`), so a request is never refused or held because the limits are unreachable.
 *
 * @example
 * const rateLimiters = durableRateLimiters({ namespace: env.SHARED, deployment, clock: systemClock });
 */
export const durableRateLimiters = (o: SharedSettingsOptions): RateLimiterFactory => {
  const fallbacks = memoryRateLimiters(o.clock);
  const logger = o.logger ?? silentLogger;
  let fallingBack = false;
  return (name, settings) => {
    const fallback = fallbacks(name, settings);
    const run = async (op: BucketOperation, key: string): Promise<RateDecision> => {
      let decision: RateDecision;
      try {
        decision = await call<RateDecision>(o, `rate|${name}|${key}`, "/rate", { op, settings, now: o.clock.now() } satisfies RateRequest);
      } catch (e) {
        if (!fallingBack) logger.log({ level: "warn", msg: "rate_limit.fallback", budget: name, error: e instanceof Error ? e.message : String(e), detail: "limits count per isolate until the shared objects answer" });
        fallingBack = true;
        return op === "take" || op === "peek" ? fallback[op](key) : fallback[op](key).then(() => ({ ok: true }) as const);
      }
      if (fallingBack) logger.log({ level: "info", msg: "rate_limit.shared" });
      fallingBack = false;
      return decision;
    };
    return {
      take: (key) => run("take", key),
      peek: (key) => run("peek", key),
      refund: async (key) => void (await run("refund", key)),
      drain: async (key) => void (await run("drain", key)),
    };
  };
};

/**
 * The Pagante switch shared by every isolate: one object holds it (seeded from the first isolate's configuration);
 * a change goes to it, and each isolate reads it again at most `maxAgeMs` after it last did (a change is seen by
 * every isolate within that). While the object cannot answer, reads keep the switch last read; a change fails.
 *
 * @example
 * const pagante = durablePaganteSettings({ namespace: env.SHARED, deployment, clock: systemClock, initial: config.pagante });
 */
export const durablePaganteSettings = (o: SharedSettingsOptions & { readonly initial: Readonly<Partial<Record<string, boolean>>>; readonly maxAgeMs?: number }): PaganteSettings => {
  const initialOff = [...paganteOffIn(o.initial)];
  const maxAgeMs = o.maxAgeMs ?? 1_000;
  let off = new Set(initialOff);
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;
  const current = async () => {
    if (o.clock.now() - readAt < maxAgeMs) return off;
    reading ??= call<PaganteReply>(o, "pagante", "/pagante", { initialOff } satisfies PaganteRequest)
      .then(
        (reply) => void ((off = new Set(reply.off)), (readAt = o.clock.now())),
        (e: unknown) => o.logger?.log({ level: "warn", msg: "pagante.unread", error: e instanceof Error ? e.message : String(e) }),
      )
      .finally(() => (reading = undefined));
    await reading;
    return off;
  };
  return {
    list: async () => paganteList(await current()),
    hiddenCashAirlines: async () => [...(await current())].sort((a, b) => a - b),
    async set(airlineId, enabled) {
      const reply = await call<PaganteReply>(o, "pagante", "/pagante", { initialOff, set: { airlineId, enabled } } satisfies PaganteRequest).catch((e: unknown) => {
        throw new StoreUnavailable(`the shared settings did not answer: ${e instanceof Error ? e.message : String(e)}`, 1);
      });
      off = new Set(reply.off);
      readAt = o.clock.now();
      return reply.before ?? true;
    },
  };
};
