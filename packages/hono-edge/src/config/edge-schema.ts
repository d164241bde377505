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
 * Login limits (`POST /Token`), counted apart from the tenants' budgets (so that unauthenticated callers can
 * never reset or spend a tenant's). Failed logins count, successful ones do not (a site that logs every
 * visitor in with one account through one server is never refused for it): per client address, whatever
 * the username (password spraying); per username and client address (guessing one account's password from
 * one address); and per username from every address together (guessing from many addresses), which never
 * slows an address the username logged in from recently. Successes have a generous cap of their own.
 */
export const LoginLimitsSchema = z.strictObject({
  /** Failed logins from one client address: 20 in a burst, then one every 5 s. */
  perClient: bucket(20, 0.2, "failed logins per client address"),
  /** Failed logins at one username from one client address: 5 in a burst, then one every 30 s... */
  perAccount: bucket(5, 1 / 30, "failed logins per username and client address"),
  /**
   * ...and, over a longer run, 20 in all, then one every 10 min: the delay grows the longer a guessing
   * attack goes on (progressive), while the same user from another address is not slowed at all.
   */
  perAccountSustained: bucket(20, 1 / 600, "sustained failed logins per username and client address"),
  /**
   * Failed logins at one username from every address together: 10 in a burst, then one every minute... An
   * address the username logged in from within `rememberAddressSeconds` is never held back by it; any other
   * waits its turn (429 `slow_down`, `Retry-After`) while the account is under attack.
   */
  perAccountAllAddresses: bucket(10, 1 / 60, "failed logins per username from every address"),
  /** ...and, over a longer run, 50 in all, then one every 15 min. */
  perAccountAllAddressesSustained: bucket(50, 1 / 900, "sustained failed logins per username from every address"),
  /** Successful logins per username and client address (bounds token minting): 300 in a burst, then 5 per second. */
  successes: bucket(300, 5, "successful logins per username and client address"),
  /** How long (seconds) a successful login makes its address known to the username: 30 days. */
  rememberAddressSeconds: z.int().min(60).max(31_536_000).default(2_592_000),
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
  /**
   * Node entry: open connections at once from one client address (an IPv6 address by its /64), so that one
   * client holding idle sockets cannot take `maxConnections` from everybody else; more are answered 429
   * `LIMITE_EXCEDIDO` and closed at once. Counted at the socket, by its peer address (no header is read
   * yet there): behind a reverse proxy every connection comes from the proxy, so with `trustedProxyHeader`
   * set the default is no cap of its own (`maxConnections`), and the proxy is where to cap clients.
   * Default without it: a quarter of `maxConnections` (256 of 1,024), room for a client with many concurrent
   * searches while three more such clients could not fill the server.
   */
  maxConnectionsPerAddress: z.int().min(1).max(1_000_000).optional(),
  /**
   * Node entry: the most bytes an SSE stream may hold written but not taken by its client (beyond what the kernel's
   * socket buffer took). A client that does not read, with more than this waiting at two checks a second apart, is
   * cut and its memory freed; it resumes with `Last-Event-ID` when it reads again. Default 262144 (256 KiB).
   */
  sseMaxBufferedBytes: z.int().min(16_384).max(67_108_864).default(262_144),
  /**
   * Node entry: how long an SSE stream may hold unread bytes without its client taking any (a client that stopped
   * reading, also after the stream's last event) before it is cut. Default 30000.
   */
  sseStalledMs: z.int().min(1_000).max(600_000).default(30_000),
});

/**
 * The per-address connection cap in force: the setting; else, behind a trusted proxy, `maxConnections` (no cap
 * of its own); else a quarter of `maxConnections`. Never above `maxConnections`.
 */
export const connectionsPerAddress = (http: z.output<typeof HttpSchema>): number =>
  Math.min(http.maxConnections, http.maxConnectionsPerAddress ?? (http.trustedProxyHeader ? http.maxConnections : Math.max(1, Math.floor(http.maxConnections / 4))));
