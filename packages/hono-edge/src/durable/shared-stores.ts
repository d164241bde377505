/**
 * The answer cache's store, the upstream breakers' store and the upstream pacing's store of a Worker deployment, over
 * its shared objects (see `shared-object.ts`): each answer and breaker its own object, named `<deployment>|answer|<key>`
 * or `<deployment>|breaker|<key>`, the pacing lists one object (`<deployment>|pacing|all`), so that deployments bound to
 * one namespace never read each other's state.
 */
import { memoryBreakerStore, memoryPacingStore, type Admission, type BreakerState, type BreakerStore, type PacingStore } from "@voar/http-adapter/fetch";
import { silentLogger, type Logger } from "../logging/logger.js";
import type { AnswerStore, CachedAnswer } from "../sources/answer-store.js";
import type { AnswerPut, BreakerAdmit, BreakerOutcome, PacingPush, PacingRead } from "./shared-object.js";
import type { DurableObjectNamespace } from "./workers-types.js";

/** Options of {@link durableAnswerStore} and {@link durableBreakerStore}. */
export interface SharedStoreOptions {
  /** The `SHARED` binding. */
  readonly namespace: DurableObjectNamespace;
  /** The deployment's fingerprint (`deploymentFingerprint`): another deployment's state on the same namespace is never read. */
  readonly deployment: Promise<string> | string;
}

/** The object reads only its path: the origin just has to be a URL. */
const ORIGIN = "https://shared.voar.internal";

const objectOf = (o: SharedStoreOptions, kind: "answer" | "breaker" | "pacing") => async (key: string) =>
  o.namespace.get(o.namespace.idFromName(`${await o.deployment}|${kind}|${key}`));

const json = (method: string, path: string, body: unknown) =>
  new Request(`${ORIGIN}${path}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/**
 * The answer cache's store over the shared objects. A lookup that fails (the object unreachable) rejects, and the
 * cache then asks the source.
 *
 * @example
 * const store = durableAnswerStore({ namespace: env.SHARED, deployment });
 */
export const durableAnswerStore = (o: SharedStoreOptions): AnswerStore => {
  const object = objectOf(o, "answer");
  return {
    get: async (key) => {
      const res = await (await object(key)).fetch(new Request(`${ORIGIN}/answer`));
      if (res.status === 404) return undefined;
      if (!res.ok) throw new Error(`shared object: HTTP ${res.status}`);
      return (await res.json()) as CachedAnswer;
    },
    set: async (key, answer, ttlMs) => {
      const res = await (await object(key)).fetch(json("PUT", "/answer", { answer, ttlMs } satisfies AnswerPut));
      // 413: too large to keep; not kept, as a full store would not keep it.
      if (!res.ok && res.status !== 413) throw new Error(`shared object: HTTP ${res.status}`);
    },
  };
};

/** Options of {@link durableBreakerStore}. */
export interface DurableBreakerStoreOptions extends SharedStoreOptions {
  /** The store used while the objects cannot answer. Default: breakers in this object's memory. */
  readonly fallback?: BreakerStore | undefined;
  /** Where the switches to and from the fallback are reported. Default: nowhere. */
  readonly logger?: Logger | undefined;
}

/**
 * The upstream's breakers over the shared objects: an airline one search object found down is not asked by the
 * next search's object either, and only one of them probes it when the cool-down is over. While the objects cannot
 * answer, the breakers live in this object's memory (the `fallback`) instead of holding an upstream request; the
 * switch is logged once (`breaker.fallback`, warn) and so is the way back (`breaker.shared`, info).
 *
 * @example
 * const breakers = durableBreakerStore({ namespace: env.SHARED, deployment });
 */
export const durableBreakerStore = (o: DurableBreakerStoreOptions): BreakerStore => {
  const object = objectOf(o, "breaker");
  const fallback = o.fallback ?? memoryBreakerStore();
  const logger = o.logger ?? silentLogger;
  let fallingBack = false;
  const call = async <T>(key: string, request: Request, instead: () => Promise<T>): Promise<T> => {
    let result: T;
    try {
      const res = await (await object(key)).fetch(request);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      result = (await res.json()) as T;
    } catch (e) {
      if (!fallingBack) {
        fallingBack = true;
        logger.log({ level: "warn", msg: "breaker.fallback", error: e instanceof Error ? e.message : String(e), detail: "upstream breakers are kept per search object until the shared objects answer" });
      }
      return instead();
    }
    if (fallingBack) {
      fallingBack = false;
      logger.log({ level: "info", msg: "breaker.shared" });
    }
    return result;
  };
  return {
    admit: (key, settings, now) => call<Admission>(key, json("POST", "/breaker/admit", { settings, now } satisfies BreakerAdmit), () => fallback.admit(key, settings, now)),
    record: async (key, outcome, settings, now) =>
      (
        await call<{ state: BreakerState }>(key, json("POST", "/breaker/record", { outcome, settings, now } satisfies BreakerOutcome), async () => ({
          state: await fallback.record(key, outcome, settings, now),
        }))
      ).state,
  };
};

/** Options of {@link durablePacingStore}. */
export interface DurablePacingStoreOptions extends SharedStoreOptions {
  /** The store used while the object cannot answer. Default: this object's memory. */
  readonly fallback?: PacingStore | undefined;
}

/**
 * What the upstream adapter learns of the upstream's pace (each airline's times and yields per route), in one shared
 * object of the deployment: a search object paces a route as the others learned it. Reads are a few a minute per
 * list at most (the adapter re-reads a list every few seconds at the soonest). While the object cannot answer, this
 * search object learns on its own (the `fallback`).
 *
 * @example
 * const pacing = durablePacingStore({ namespace: env.SHARED, deployment });
 */
export const durablePacingStore = (o: DurablePacingStoreOptions): PacingStore => {
  const object = objectOf(o, "pacing");
  const fallback = o.fallback ?? memoryPacingStore();
  return {
    push: async (entries) => {
      await fallback.push(entries);
      const res = await (await object("all")).fetch(json("POST", "/pacing/push", { entries } satisfies PacingPush));
      if (!res.ok) throw new Error(`shared object: HTTP ${res.status}`);
    },
    read: async (keys) => {
      try {
        const res = await (await object("all")).fetch(json("POST", "/pacing/read", { keys } satisfies PacingRead));
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return (await res.json()) as string[][];
      } catch {
        return fallback.read(keys);
      }
    },
  };
};
