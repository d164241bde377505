/**
 * The upstream's sources behind the answer cache, as configured (`upstream.cache`): in Redis when the
 * store is Redis (shared by every instance of the deployment, under its prefix), else in this instance's
 * memory.
 */
import { hash53, type SearchSource } from "@voar/core";
import type { Clock } from "../clock.js";
import { upstreamCacheOf, type UpstreamConfig } from "../config/deploy-schema.js";
import type { Logger } from "../logging/logger.js";
import { createMemoryAnswerStore, type AnswerStore } from "./answer-store.js";
import { createAnswerCache, type AnswerCache, type CacheLookup } from "./cached-sources.js";

/** What {@link cachedUpstreamSources} needs besides the configuration. */
export interface CachedUpstreamOptions {
  readonly clock: Clock;
  readonly logger?: Logger | undefined;
  /** The shared store (Redis); default: in memory, `upstream.cache.maxEntries` answers. */
  readonly store?: AnswerStore | undefined;
  /** Hears every lookup (a metric's counter). */
  readonly onCacheLookup?: ((outcome: CacheLookup, sourceId: string) => void) | undefined;
}

/** The upstream account an answer belongs to: its URL and login, a token only as a digest. */
export const upstreamAccount = (u: UpstreamConfig): string =>
  `${u.url.replace(/\/+$/, "")}|${u.token !== undefined ? `token:${hash53(u.token).toString(36)}` : `user:${u.username ?? ""}`}`;

/**
 * The sources through the cache, and the cache (close it at shutdown); the sources as they are when the
 * cache is off.
 *
 * @example
 * const { sources, cache } = cachedUpstreamSources(upstream.sources, config.upstream, { clock: systemClock, logger });
 */
export const cachedUpstreamSources = (
  sources: readonly SearchSource[],
  upstream: UpstreamConfig,
  o: CachedUpstreamOptions,
): { readonly sources: readonly SearchSource[]; readonly cache: AnswerCache | undefined } => {
  const c = upstreamCacheOf(upstream);
  if (!c.enabled) return { sources, cache: undefined };
  const cache = createAnswerCache({
    store: o.store ?? createMemoryAnswerStore({ maxEntries: c.maxEntries, clock: o.clock }),
    clock: o.clock,
    freshMs: c.freshMs,
    staleMs: c.staleMs,
    account: upstreamAccount(upstream),
    logger: o.logger,
    onCacheLookup: o.onCacheLookup,
  });
  return { sources: cache.wrap(sources), cache };
};
