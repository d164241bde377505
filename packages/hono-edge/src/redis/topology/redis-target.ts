import type { RedisStoreConfig } from "../../config/redis-store-schema.js";

/** A node of a cluster or a sentinel. */
export interface HostPort {
  readonly host: string;
  readonly port: number;
}

/** What the data nodes of a cluster or a sentinel-watched primary ask of a client. */
export interface NodeAuth {
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  /** Connect over TLS. */
  readonly tls?: boolean | undefined;
}

/**
 * Where the service's Redis is: one Redis (a URL: a single server, or a managed primary endpoint that follows
 * its failovers), a primary named by sentinels (followed across a failover), or a Redis Cluster (its keys
 * spread over its primaries, each search's keys in one slot).
 */
export type RedisTarget =
  | { readonly kind: "single"; readonly url: string }
  | ({ readonly kind: "sentinel"; readonly sentinels: readonly HostPort[]; readonly name: string; readonly sentinelPassword?: string | undefined } & NodeAuth)
  | ({ readonly kind: "cluster"; readonly nodes: readonly HostPort[] } & NodeAuth);

/** The topologies, as `RedisTarget["kind"]`. */
export type RedisTopology = RedisTarget["kind"];

/** `host:port` to its parts (the configuration checked its shape). */
export const hostPort = (text: string): HostPort => {
  const at = text.lastIndexOf(":");
  return { host: text.slice(0, at), port: Number(text.slice(at + 1)) };
};

/** The target of the configuration's `store.redis`. */
export const redisTargetOf = (c: RedisStoreConfig): RedisTarget => {
  const auth = { username: c.username, password: c.password, tls: c.tls };
  if (c.cluster) return { kind: "cluster", nodes: c.cluster.map(hostPort), ...auth };
  if (c.sentinels) return { kind: "sentinel", sentinels: c.sentinels.map(hostPort), name: c.sentinelName ?? "", sentinelPassword: c.sentinelPassword, ...auth };
  return { kind: "single", url: c.url ?? "" };
};

/** What a log line may say of a target: its topology and nodes, never a password. */
export const describeTarget = (t: RedisTarget): Record<string, unknown> => {
  if (t.kind === "cluster") return { topology: "cluster", nodes: t.nodes.map((n) => `${n.host}:${n.port}`) };
  if (t.kind === "sentinel") return { topology: "sentinel", sentinels: t.sentinels.map((n) => `${n.host}:${n.port}`), name: t.name };
  const url = new URL(t.url);
  return { topology: "single", host: `${url.hostname}:${url.port || "6379"}` };
};
