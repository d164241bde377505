import { AIRLINES } from "@voar/core";
import * as z from "zod";
import { AdmissionSchema } from "./admission-schema.js";
import { AlertSettingsSchema } from "./alerts-schema.js";
import { CalendarSettingsSchema } from "./calendar-schema.js";
import { StoreSchema, UpstreamSchema } from "./deploy-schema.js";
import { HttpSchema, LoginLimitsSchema } from "./edge-schema.js";
import { SearchSettingsSchema } from "./search-schema.js";

/**
 * The operator's settings of the service, as one zod schema: every field has a default except the
 * credentials, and every rule is checked at start (see `loadConfig`), so a bad setting stops the
 * service with a clear message instead of surfacing at the first request.
 */

const AIRLINE_IDS = AIRLINES.map((a) => String(a.id)) as [string, ...string[]];

/**
 * How the service answers a client: `"spec"` (default) as the spec says; `"legacy"` as the legacy API did,
 * for clients that cannot be changed: lenient request bodies, HTTP 200 for every answer of `Consultar`
 * (errors too, with `Success: false`), and the whole result when no page is asked (README "Legacy clients").
 */
export const CompatSchema = z.enum(["spec", "legacy"]).default("spec");

/** A static bearer token and the tenant it stands for. */
export const ApiKeySchema = z.strictObject({
  /** Tenant name: searches are shared per tenant and query; rate limits count per tenant. */
  name: z.string().regex(/^[\w.-]{1,64}$/, "must be 1-64 letters, digits, '_', '.' or '-'"),
  /** The secret itself; at least 16 characters. */
  key: z.string().min(16, "must have at least 16 characters").max(512),
  /** How this client is answered (see {@link CompatSchema}). */
  compat: CompatSchema,
});

/** Agency credentials for the OAuth2 password grant of `POST /api/Token`; the username is the tenant. */
export const AgencySchema = z.strictObject({
  username: z.string().regex(/^[^\s:,]{1,64}$/, "must be 1-64 characters without spaces, ':' or ','"),
  password: z.string().min(8, "must have at least 8 characters").max(512),
  /** How this agency's tokens are answered (see {@link CompatSchema}). */
  compat: CompatSchema,
});

/**
 * A key of the operator endpoints (`/admin/*`): the key alone, or `{ name, key }` so that the audit log of a change
 * names whose key made it (never the key). A key given alone is named by a digest of it (`key-1a2b3c4d`).
 */
export const AdminKeySchema = z
  .union([
    z.string().min(16, "must have at least 16 characters").max(512),
    z.strictObject({
      /** Who holds the key, as the audit log names them. */
      name: z.string().regex(/^[\w.-]{1,64}$/, "must be 1-64 letters, digits, '_', '.' or '-'"),
      /** The secret itself; at least 16 characters. */
      key: z.string().min(16, "must have at least 16 characters").max(512),
    }),
  ])
  .transform((k): { readonly name: string | undefined; readonly key: string } => (typeof k === "string" ? { name: undefined, key: k } : k));

const RateLimitSchema = z.strictObject({
  /** Requests a tenant may make in a burst. */
  capacity: z.int().min(1).max(1_000_000).default(60),
  /** Requests per second added back to the bucket. */
  refillPerSecond: z.number().positive().max(1_000_000).default(5),
});

const LimitsSchema = z.strictObject({
  /** Largest request body, in bytes (413 `CORPO_GRANDE_DEMAIS` above it). */
  bodyBytes: z.int().min(256).max(1_048_576).default(16_384),
  rateLimit: RateLimitSchema.prefault({}),
  login: LoginLimitsSchema.prefault({}),
  /**
   * Refused credentials (unknown or expired API keys and tokens) per client address: 30 in a burst, then one every
   * 2 s; past it the address is answered 429 `LIMITE_EXCEDIDO` before its credential is looked at, so keys cannot
   * be guessed at the speed of the network. Accepted credentials cost nothing.
   */
  refusedKeys: z
    .strictObject({
      capacity: z.int().min(1).max(1_000_000).default(30),
      refillPerSecond: z.number().positive().max(1_000_000).default(0.5),
    })
    .prefault({}),
  /**
   * Searches kept at once by the in-memory store (running at once, on Redis): the least recently used
   * completed one makes room; a running one never does: a new search is refused (429 `LIMITE_EXCEDIDO`,
   * `Retry-After`) instead.
   */
  maxSessions: z.int().min(1).max(1_000_000).default(1_000),
  /** Searches one tenant may keep at once (running at once, on Redis), so that one tenant cannot fill the service. */
  maxSessionsPerTenant: z.int().min(1).max(1_000_000).default(100),
  /** New searches refused while the instance is overloaded (its event loop lags; entries that measure it). */
  admission: AdmissionSchema.prefault({}),
});

const SseSchema = z.strictObject({
  /** A comment line is sent after this long without a snapshot, so proxies keep the stream open. */
  keepAliveMs: z.int().min(1_000).max(300_000).default(15_000),
  /** `retry:` hint sent to clients: how long to wait before reconnecting. */
  retryMs: z.int().min(0).max(60_000).default(1_000),
});

const CorsSchema = z.strictObject({
  /** `*`, or the allowed origins; empty (the default) disables CORS. */
  origins: z.union([z.literal("*"), z.array(z.url())]).default([]),
  /** How long a browser may keep a preflight answer (`Access-Control-Max-Age`), in seconds. */
  maxAgeSeconds: z.int().min(0).max(86_400).default(600),
});

const MetricsSchema = z.strictObject({
  /** Serve the Prometheus metrics at `GET /metrics` (entries that have them: Node). */
  enabled: z.boolean().default(true),
  /**
   * A port of their own for the metrics, without a key (keep it off the public network); absent: on the
   * service's port, to the holders of an admin key (`X-Admin-Key` or `Authorization: Bearer`). 0 picks a
   * free port (logged as `metrics.listening`).
   */
  port: z.int().min(0).max(65_535).optional(),
});

/** The shortest token lifetime accepted (15 min): above the 10 min margin clients renew with. */
export const MIN_TOKEN_TTL_SECONDS = 900;

const TokensSchema = z.strictObject({
  /** HMAC secret that signs issued tokens; set it (same value everywhere) to share tokens across instances. */
  secret: z.string().min(32, "must have at least 32 characters").optional(),
  /**
   * Lifetime of an issued token (`expires_in`). At least 15 min: clients of the legacy API renew a token
   * 10 min before it expires (`expires_in - 600`), so a shorter one would be renewed before each use.
   */
  ttlSeconds: z
    .int()
    .min(MIN_TOKEN_TTL_SECONDS, `must be at least ${MIN_TOKEN_TTL_SECONDS} s: clients renew a token 10 min (600 s) before it expires`)
    .max(86_400)
    .default(3_600),
});

/** The whole configuration of the service. */
export const ServiceConfigSchema = z
  .strictObject({
    /** Path prefix of every route but `/health`; default `/api`, `""` for the root. */
    basePath: z
      .string()
      .regex(/^(\/[A-Za-z0-9._~-]+)*$/, "must be empty or start with '/' and not end with '/' (e.g. /api)")
      .default("/api"),
    apiKeys: z.array(ApiKeySchema).default([]),
    agencies: z.array(AgencySchema).default([]),
    /** Keys of the operator endpoints (`/admin/*`), each a key or `{ name, key }`; none disables them. */
    adminKeys: z.array(AdminKeySchema).default([]),
    tokens: TokensSchema.prefault({}),
    /** Per-airline Pagante switch at start, by Companhia id; absent means on (cash flights shown). */
    pagante: z.partialRecord(z.enum(AIRLINE_IDS), z.boolean()).default({}),
    limits: LimitsSchema.prefault({}),
    search: SearchSettingsSchema.prefault({}),
    /** Price calendars: day searches around a date (see the calendar guide). */
    calendar: CalendarSettingsSchema.prefault({}),
    /** Price watches ("avise-me quando baixar"): quotas, budget, schedule, webhooks (see the price alerts guide). */
    alerts: AlertSettingsSchema.prefault({}),
    sse: SseSchema.prefault({}),
    http: HttpSchema.prefault({}),
    cors: CorsSchema.prefault({}),
    metrics: MetricsSchema.prefault({}),
    /** A real ConsultaAereo upstream to search; absent: the embedded simulator (entries that have one). */
    upstream: UpstreamSchema.optional(),
    /** Where searches live: `{ memory: {} }` (default) or `{ redis: { url | cluster | sentinels, ... } }` (entries that have one). */
    store: StoreSchema,
  })
  .superRefine((c, ctx) => {
    if (c.apiKeys.length === 0 && c.agencies.length === 0) {
      ctx.addIssue({ code: "custom", path: ["apiKeys"], message: "configure at least one API key or one agency: no request could be authenticated" });
    }
    const dup = (values: readonly string[]) => values.find((v, i) => values.indexOf(v) !== i);
    const names = dup(c.apiKeys.map((k) => k.name));
    if (names !== undefined) ctx.addIssue({ code: "custom", path: ["apiKeys"], message: `duplicate API key name "${names}"` });
    if (dup(c.apiKeys.map((k) => k.key)) !== undefined) ctx.addIssue({ code: "custom", path: ["apiKeys"], message: "the same key is given twice" });
    const users = dup(c.agencies.map((a) => a.username));
    if (users !== undefined) ctx.addIssue({ code: "custom", path: ["agencies"], message: `duplicate agency username "${users}"` });
    const keys = new Set(c.apiKeys.map((k) => k.key));
    if (c.adminKeys.some((k) => keys.has(k.key))) {
      ctx.addIssue({ code: "custom", path: ["adminKeys"], message: "an admin key must not also be an API key" });
    }
    const admins = dup(c.adminKeys.flatMap((k) => (k.name === undefined ? [] : [k.name])));
    if (admins !== undefined) ctx.addIssue({ code: "custom", path: ["adminKeys"], message: `duplicate admin key name "${admins}"` });
  });

/** The configuration as written in a file or built in code (defaults optional). */
export type ServiceConfigInput = z.input<typeof ServiceConfigSchema>;
/** The validated configuration, every default filled in. */
export type ServiceConfig = z.output<typeof ServiceConfigSchema>;
