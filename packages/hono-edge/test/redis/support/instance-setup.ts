import { createSimulator } from "@voar/testing/simulator";
import type { Redis } from "ioredis";
import type { RedisTarget } from "../../../src/redis/index.js";
import { createApp } from "../../../src/app/create-app.js";
import { priceCalendar } from "../../../src/calendar/price-calendar.js";
import { silentLogger, type Logger } from "../../../src/logging/logger.js";
import { createRedisSessionStore } from "../../../src/redis/index.js";
import { countCalls } from "../../support/wire.js";
import { testConfig } from "../../support/app.js";

/** The lease of the multi-instance tests: the shortest the configuration allows. */
export const LEASE_MS = 1_000;

/**
 * A query whose whole result fits one page of 100 (about 70 flights from four airlines), so each answer
 * shows every flight the search has, and the sources' latencies: two answer early, the others take seconds,
 * so a search is still running when its owner dies.
 */
export const LISBON = { Origem: "GRU", Destino: "LIS", QuantidadePorPagina: 100 } as const;
const latencyMs = (sourceId: string) => (sourceId === "latam" ? 300 : sourceId === "azul" ? 600 : 3_000);

/**
 * One instance of the service on a shared Redis (its own connections: a URL, a client, or a Sentinel or Cluster
 * target), counting the source calls it makes. `latency` overrides the sources' latencies; `limits` the caps.
 */
export const redisInstance = (o: {
  readonly redis: string | Redis | RedisTarget;
  readonly prefix: string;
  readonly instanceId: string;
  readonly logger?: Logger;
  readonly latency?: (sourceId: string) => number;
  readonly limits?: { readonly maxSessions?: number; readonly maxSessionsPerTenant?: number };
  readonly leaseMs?: number;
  readonly deadlineMs?: number;
}) => {
  // Keep-alives (and so the SSE followers' takeover checks) every second, the shortest allowed.
  const config = testConfig({ search: { leaseMs: o.leaseMs ?? LEASE_MS, ...(o.deadlineMs === undefined ? {} : { deadlineMs: o.deadlineMs }) }, sse: { keepAliveMs: 1_000 } });
  const counted = countCalls(createSimulator({ latencyMs: o.latency ?? latencyMs, batches: 3 }).sources);
  const store = createRedisSessionStore({ redis: o.redis, keyPrefix: o.prefix, ttlMs: config.search.ttlMs, ...o.limits });
  const app = createApp({ config, sources: counted.sources, store, instanceId: o.instanceId, logger: o.logger ?? silentLogger, priceCalendar: priceCalendar() });
  return { app, store, calls: counted };
};
