import * as z from "zod";

/**
 * The shared Redis of the service's instances, in one of three topologies: one Redis (`url`: a single server,
 * or a managed primary endpoint that follows its failovers), a primary found through Sentinel (`sentinels` and
 * `sentinelName`: followed across a failover), or a Redis Cluster (`cluster`: searches spread over its
 * primaries). docs/deploy/scaling.md says what each promises and how to choose.
 */

/** `host:port`, as Redis Cluster and Sentinel nodes are named. */
const HostPort = z.string().regex(/^[^\s:,/]+:\d{1,5}$/, "must be host:port, e.g. 10.0.0.5:6379");

/** A Redis shared by every instance: searches started on one are served by all. */
export const RedisStoreSchema = z
  .strictObject({
    /** One Redis: `redis://[user:password@]host:6379[/db]` or `rediss://` (TLS). */
    url: z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379" }).optional(),
    /**
     * Redis Cluster: some of its nodes (`host:port`, primaries or replicas), from which the client learns the
     * rest; every search's keys share one slot, and searches spread over every primary. Redis 7 or later.
     */
    cluster: z.array(HostPort).min(1, "must name at least one node").optional(),
    /** Sentinel: the sentinels (`host:port`) that name the current primary and follow its failovers. */
    sentinels: z.array(HostPort).min(1, "must name at least one sentinel").optional(),
    /** Sentinel: the name the sentinels monitor the primary by (`sentinel monitor <name> ...`). */
    sentinelName: z.string().min(1).max(128).optional(),
    /** Cluster or Sentinel: the user of the data nodes (ACL). With `url`, put it in the URL. */
    username: z.string().min(1).max(256).optional(),
    /** Cluster or Sentinel: the password of the data nodes, a secret. With `url`, put it in the URL. */
    password: z.string().min(1).max(4_096).optional(),
    /** Sentinel: the password of the sentinels themselves, when they ask for one. */
    sentinelPassword: z.string().min(1).max(4_096).optional(),
    /** Cluster or Sentinel: connect to the data nodes over TLS. With `url`, write `rediss://`. Default false. */
    tls: z.boolean().optional(),
    /** Prefix of every key and channel: one per deployment sharing a Redis. Default `voar:`. */
    keyPrefix: z.string().min(1).max(128).optional(),
    /**
     * Node entry: an instance that cannot reach its Redis for this long (ms) in a row logs `store.unreachable_exit`
     * and exits with code 75, so that its supervisor (systemd, Docker, Kubernetes) starts it afresh; while its peers
     * are served, no instance stays 503 for good. 0: never. Default 60000 (a Redis restart or failover takes
     * seconds).
     */
    exitAfterUnavailableMs: z.int().min(0).max(86_400_000).default(60_000),
  })
  .superRefine((r, ctx) => {
    const given = (["url", "cluster", "sentinels"] as const).filter((k) => r[k] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({ code: "custom", path: [], message: given.length === 0 ? "give url, cluster or sentinels" : `give one of url, cluster or sentinels, not ${given.join(" and ")}` });
    }
    if (r.sentinels !== undefined && r.sentinelName === undefined) ctx.addIssue({ code: "custom", path: ["sentinelName"], message: "Sentinel needs the name of the primary the sentinels monitor" });
    if (r.sentinels === undefined && (r.sentinelName !== undefined || r.sentinelPassword !== undefined)) {
      ctx.addIssue({ code: "custom", path: [r.sentinelName !== undefined ? "sentinelName" : "sentinelPassword"], message: "only with sentinels" });
    }
    if (r.url !== undefined) {
      for (const k of ["username", "password"] as const) if (r[k] !== undefined) ctx.addIssue({ code: "custom", path: [k], message: "with url, put it in the URL (redis://user:password@host:6379)" });
      if (r.tls) ctx.addIssue({ code: "custom", path: ["tls"], message: "with url, write rediss:// for TLS" });
    }
    // The first {...} of a key is its hash tag: a tag in the prefix would put every key of the cluster in one slot.
    if (r.cluster !== undefined && r.keyPrefix !== undefined && /[{}]/.test(r.keyPrefix)) {
      ctx.addIssue({ code: "custom", path: ["keyPrefix"], message: "must not hold { or } on a cluster: each search gets a hash tag of its own" });
    }
  });

/** The Redis of the configuration (validated). */
export type RedisStoreConfig = z.output<typeof RedisStoreSchema>;
