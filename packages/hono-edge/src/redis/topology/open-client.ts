import { Cluster, Redis, type ClusterOptions, type RedisOptions } from "ioredis";
import { redisClientOptions } from "../store-guard.js";
import { keepConnecting, type KeepConnectingOptions } from "./keep-connecting.js";
import type { NodeAuth, RedisTarget } from "./redis-target.js";

/** A client of the service's Redis: one connection (single, Sentinel), or a cluster's (one per node). */
export type RedisClient = Redis | Cluster;

/** True for a cluster's client. */
export const isCluster = (c: RedisClient): c is Cluster => (c as { isCluster?: unknown }).isCluster === true;

const nodeOptions = (a: NodeAuth): Partial<RedisOptions> => ({
  ...(a.username === undefined ? {} : { username: a.username }),
  ...(a.password === undefined ? {} : { password: a.password }),
  ...(a.tls ? { tls: {} } : {}),
});

/**
 * The options of a cluster's client, with the service's fast failures (see `redisClientOptions`): a command to a
 * slot whose primary is gone fails instead of queueing; the slots are read again every second (and at once
 * after a node is lost or a redirection), so a promoted replica is found within about a second of its promotion.
 */
export const clusterOptions = (target: NodeAuth, commandTimeoutMs: number, over: Partial<ClusterOptions> = {}): ClusterOptions => {
  const { retryStrategy: _perNode, enableOfflineQueue: _queue, ...node } = redisClientOptions(commandTimeoutMs);
  return {
    enableOfflineQueue: false,
    enableReadyCheck: true,
    slotsRefreshInterval: 1_000,
    slotsRefreshTimeout: 1_000,
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    maxRedirections: 16,
    clusterRetryStrategy: (times) => Math.min(100 * times, 1_000),
    redisOptions: { ...node, ...nodeOptions(target) },
    ...over,
  };
};

/**
 * Opens a client on a target with the service's settings (`redisClientOptions`: commands fail at once while
 * disconnected, reconnection in the background, and a new connection when the client gave up: `keepConnecting`): a URL's Redis; a Sentinel primary (asked of the sentinels at
 * every connection, and followed at once when they announce a failover); or a cluster's nodes.
 */
export const openClient = (target: RedisTarget, commandTimeoutMs: number, revive?: KeepConnectingOptions): RedisClient =>
  keepConnecting(openBare(target, commandTimeoutMs), revive);

const openBare = (target: RedisTarget, commandTimeoutMs: number): RedisClient => {
  if (target.kind === "single") return new Redis(target.url, redisClientOptions(commandTimeoutMs));
  if (target.kind === "cluster") return connectEagerly(new Cluster([...target.nodes], clusterOptions(target, commandTimeoutMs)));
  return new Redis({
    ...redisClientOptions(commandTimeoutMs),
    ...nodeOptions(target),
    sentinels: [...target.sentinels],
    name: target.name,
    ...(target.sentinelPassword === undefined ? {} : { sentinelPassword: target.sentinelPassword }),
    ...(target.tls ? { enableTLSForSentinelMode: true } : {}),
    // Subscribes to the sentinels' +switch-master: a failover is followed when announced, not at the next error.
    failoverDetector: true,
    sentinelRetryStrategy: (times) => Math.min(100 * times, 1_000),
  });
};

/**
 * A cluster client connects to a node at its first command, and with the offline queue off (commands fail fast)
 * it refuses the commands that reach the node while that connection is being made: each node is connected as
 * soon as the client knows it instead (at start, and a promoted replica after a failover).
 */
const connectEagerly = (cluster: Cluster): Cluster => {
  cluster.on("+node", (node: Redis) => {
    if (node.status === "wait") node.connect().catch(() => undefined); // a node that cannot be reached is the guard's to report
  });
  return cluster;
};

/**
 * Another client on the same Redis with the same settings, `over` aside: for a cluster, another cluster client
 * (its own connections to every node it needs). `over.enableOfflineQueue` applies to the cluster client itself.
 */
export const duplicateClient = (client: RedisClient, over: Partial<RedisOptions> = {}): RedisClient => {
  if (!isCluster(client)) return keepConnecting(client.duplicate(over));
  const { enableOfflineQueue, ...node } = over;
  const base = client.options;
  const queue = enableOfflineQueue === undefined ? {} : { enableOfflineQueue };
  return keepConnecting(connectEagerly(client.duplicate(undefined, { ...base, ...queue, redisOptions: { ...base.redisOptions, ...node } })));
};

/**
 * A client for pub/sub: on a cluster, one whose subscriptions are sharded (`SSUBSCRIBE`, one connection per
 * primary, subscribed again on the primary that serves a channel's slot after a failover); elsewhere another
 * connection that may queue its `SUBSCRIBE` while it (re)connects.
 */
export const subscriberClient = (client: RedisClient): RedisClient => {
  if (!isCluster(client)) return keepConnecting(client.duplicate({ enableOfflineQueue: true }));
  return keepConnecting(client.duplicate(undefined, { ...client.options, shardedSubscribers: true, enableOfflineQueue: true }));
};
