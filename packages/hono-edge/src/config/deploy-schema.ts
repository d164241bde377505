import { AIRLINES } from "@voar/core";
import * as z from "zod";
import { RedisStoreSchema } from "./redis-store-schema.js";
import { UpstreamBreakerSchema, UpstreamBudgetSchema } from "./upstream-protection-schema.js";

/**
 * Where the service's flights come from and where its searches live: a real ConsultaAereo upstream
 * (absent: the embedded simulator) and the session store (in memory, or Redis shared by several instances).
 */

/** The single-airline Companhia ids an upstream can be asked for, one source each (decisions.md). */
export const UPSTREAM_AIRLINE_IDS: readonly number[] = AIRLINES.map((a) => a.id);

/**
 * The upstream's answers cached and shared by every tenant of the deployment (in Redis when the store is
 * Redis, else in memory), with stale-while-revalidate: see the hono-edge README, "Answer cache".
 */
export const UpstreamCacheSchema = z
  .strictObject({
    /** Cache the upstream's answers. Default true. */
    enabled: z.boolean().default(true),
    /** How long an answer (one airline's, for one query) is served as it is, in ms. Default 300 000 (5 min). */
    freshMs: z.int().min(1_000).max(86_400_000).default(300_000),
    /**
     * How long after that it is still served at once while one refresh runs, in ms; 0: never. Default 300 000.
     * An offer is current (`validUntil`) for `freshMs + staleMs` from when it was seen, and never served past it.
     */
    staleMs: z.int().min(0).max(86_400_000).default(300_000),
    /** Answers kept at most (the oldest forgotten first). Default 2 000. */
    maxEntries: z.int().min(1).max(1_000_000).default(2_000),
  });

/** The answer cache as configured (validated). */
export type UpstreamCacheConfig = z.output<typeof UpstreamCacheSchema>;

/** The answer cache of an upstream: its own settings, else the defaults (on). */
export const upstreamCacheOf = (u: { readonly cache?: UpstreamCacheConfig | undefined }): UpstreamCacheConfig => u.cache ?? UpstreamCacheSchema.parse({});

/** A real ConsultaAereo upstream: its URL and either a static token or an agency login. */
export const UpstreamSchema = z
  .strictObject({
    /** Base URL of its API, routes below it: `https://host/api` for `https://host/api/ConsultaAereo/Consultar`. */
    url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL, e.g. https://upstream.example/api" }),
    /** A static bearer token (an API key), sent as is. Give it, or `username` and `password`. */
    token: z.string().min(1, "must not be empty").max(4_096).optional(),
    /** An agency login, exchanged for a token at `POST {url}/Token` (and again when it expires). */
    username: z.string().min(1, "must not be empty").max(256).optional(),
    /** The agency login's password: a secret (set it from the environment or a secret store, never in a committed file). */
    password: z.string().min(1, "must not be empty").max(4_096).optional(),
    /**
     * Companhia ids to fan out to, one source each: leave out the airlines the account may not search, so
     * they do not show as failed on every search. Default: every single-airline id.
     */
    airlines: z
      .array(z.int())
      .min(1, "must name at least one airline")
      .refine((ids) => ids.every((id) => UPSTREAM_AIRLINE_IDS.includes(id)), {
        message: `must hold only single-airline Companhia ids (${UPSTREAM_AIRLINE_IDS.join(", ")})`,
      })
      .refine((ids) => new Set(ids).size === ids.length, { message: "names an airline twice" })
      .optional(),
    /** A breaker per airline and OTA comparison (`upstream.breaker.*`). */
    breaker: UpstreamBreakerSchema,
    /** A budget of upstream requests per search (`upstream.budget.*`). */
    budget: UpstreamBudgetSchema,
    /**
     * How a Mode A search asks the upstream. `one-search` (default): one all-airlines upstream search, each
     * airline's progress read from its `ActiveProviders`, polled when the next airline is expected to have
     * answered: about the requests of a plain client polling every 10 s. `fan-out`: one single-airline search
     * per airline, for an upstream whose all-airlines search shows nothing until its slowest airline answered;
     * it costs at least two requests per airline (about 2.3x the plain client's for 7 airlines, 6x cold).
     */
    strategy: z.enum(["one-search", "fan-out"]).default("one-search"),
    /** Mode B (OTA comparison) through the upstream's own comparison, Companhia 1300. Default true. */
    otas: z.boolean().default(true),
    /** Limit of one HTTP exchange with the upstream, in ms (adapter default 30 000). */
    requestTimeoutMs: z.int().min(100).max(600_000).optional(),
    /** The answer cache (`upstream.cache.*`); absent: on, with its defaults. */
    cache: UpstreamCacheSchema.optional(),
  })
  .superRefine((u, ctx) => {
    const login = u.username !== undefined || u.password !== undefined;
    if (u.token !== undefined && login) {
      ctx.addIssue({ code: "custom", path: ["token"], message: "give either token, or username and password, not both" });
    } else if (u.token === undefined && !login) {
      ctx.addIssue({ code: "custom", path: ["token"], message: "give token, or username and password: the upstream needs credentials" });
    } else if (login && (u.username === undefined || u.password === undefined)) {
      ctx.addIssue({ code: "custom", path: [u.username === undefined ? "username" : "password"], message: "an agency login needs both username and password" });
    }
  });

/**
 * Where searches live between requests: `{ memory: {} }` (default, one instance) or `{ redis: {...} }` (one Redis,
 * Sentinel or Cluster: see `redis-store-schema.ts`).
 */
export const StoreSchema = z
  .strictObject({
    memory: z.strictObject({}).optional(),
    redis: RedisStoreSchema.optional(),
  })
  .default({ memory: {} })
  .superRefine((s, ctx) => {
    if (s.memory !== undefined && s.redis !== undefined) ctx.addIssue({ code: "custom", path: [], message: "give either memory or redis, not both" });
    if (s.memory === undefined && s.redis === undefined) ctx.addIssue({ code: "custom", path: [], message: "give memory: {} or redis: { url }, { cluster } or { sentinels, sentinelName }" });
  });

/** An upstream as configured (validated). */
export type UpstreamConfig = z.output<typeof UpstreamSchema>;
/** The session store as configured (validated). */
export type StoreConfig = z.output<typeof StoreSchema>;

/** The credentials of a validated upstream, in the adapter's shape. */
export const upstreamCredentials = (u: UpstreamConfig): { readonly token: string } | { readonly username: string; readonly password: string } =>
  u.token !== undefined ? { token: u.token } : { username: u.username ?? "", password: u.password ?? "" };
