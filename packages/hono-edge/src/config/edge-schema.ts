import * as z from "zod";

/** The settings of the service's edge against abuse: login budgets and the HTTP server's limits. */

const bucket = (capacity: number, refillPerSecond: number, what: string) =>
  z
    .strictObject({
      capacity: z.int().min(1).max(1_000_000).default(capacity),
      refillPerSecond: z.number().positive().max(1_000_000).default(refillPerSecond),
    })
    .prefault({})
    .describe(what);

/**
 * Login attempts (`POST /Token`), counted apart from the tenants' budgets (so that unauthenticated callers
 * can never reset or spend a tenant's): per client address, whatever the username (password spraying), and
 * per username and client address (guessing one account's password), so an attack from elsewhere never
 * locks the real user out.
 */
export const LoginLimitsSchema = z.strictObject({
  /** Attempts from one client address: 20 in a burst, then one every 5 s. */
  perClient: bucket(20, 0.2, "login attempts per client address"),
  /** Attempts at one username from one client address: 5 in a burst, then one every 30 s... */
  perAccount: bucket(5, 1 / 30, "login attempts per username and client address"),
  /**
   * ...and, over a longer run, 20 in all, then one every 10 min: the delay grows the longer a guessing
   * attack goes on (progressive), while the same user from another address is not slowed at all.
   */
  perAccountSustained: bucket(20, 1 / 600, "sustained login attempts per username and client address"),
});

/**
 * The HTTP edge: where the client address comes from, and (Node entry) the server's timeouts and connection
 * cap, so that slow or idle clients cannot hold connections for long.
 */
export const HttpSchema = z.strictObject({
  /**
   * A header set by a trusted reverse proxy with the client's address (e.g. `x-forwarded-for`: its last
   * entry, the one the proxy appended, is used). Absent: the address of the connection, from the runtime.
   * Set it only behind a proxy that sets it: otherwise clients choose their own address.
   */
  trustedProxyHeader: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, "must be a header name")
    .transform((h) => h.toLowerCase())
    .optional(),
  /** Node entry: most time to receive a request's headers (`server.headersTimeout`). */
  headersTimeoutMs: z.int().min(100).max(600_000).default(10_000),
  /** Node entry: most time to receive a whole request, body included (`server.requestTimeout`). */
  requestTimeoutMs: z.int().min(100).max(3_600_000).default(30_000),
  /** Node entry: how long an idle keep-alive connection stays open (`server.keepAliveTimeout`). */
  keepAliveTimeoutMs: z.int().min(100).max(600_000).default(5_000),
  /** Node entry: open connections at once (`server.maxConnections`); more are closed at once. */
  maxConnections: z.int().min(1).max(1_000_000).default(1_024),
});
