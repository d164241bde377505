import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener, type ServerType } from "@hono/node-server";
import { systemClock } from "../clock.js";
import type { ServiceConfig } from "../config/config-schema.js";
import { connectionsPerAddress } from "../config/edge-schema.js";
import { throttleSummary } from "../limits/throttle-summary.js";
import { silentLogger, type Logger } from "../logging/logger.js";
import { capConnectionsPerAddress } from "./connection-cap.js";
import { answerClientError, requestErrorAnswer } from "./node-rejections.js";

/** Where and how {@link serveNode} listens. */
export interface NodeServeOptions {
  readonly fetch: (request: Request, env: unknown) => Response | Promise<Response>;
  readonly port: number;
  readonly hostname: string;
  /** The server's limits (`config.http`): timeouts, the connection cap and the cap per client address. */
  readonly http: ServiceConfig["http"];
  /** Where refused connections and requests are reported, in summary lines. Default: nowhere. */
  readonly logger?: Logger | undefined;
}

/**
 * Serves an app on Node (`@hono/node-server`'s request listener on `node:http`) with explicit limits, well
 * below Node's defaults, so that slow or idle clients cannot hold connections: the headers must arrive within
 * `headersTimeoutMs` and the whole request within `requestTimeoutMs` (408 and the connection closed;
 * slow-loris), an idle keep-alive connection closes after `keepAliveTimeoutMs`, at most `maxConnections` are
 * open at once (more are closed as they arrive), and at most `maxConnectionsPerAddress` from one client
 * address (more are answered 429 and closed; see `connection-cap.ts`). Node checks the timeouts every
 * `min(headersTimeoutMs, 1 s)`.
 *
 * What Node refuses before the app runs is answered with the error envelope, not an empty body: 400 for a
 * request it cannot parse or whose target is no path (`POST *`), 431 for headers over its limit, 408 for a
 * request that did not arrive in time (`node-rejections.ts`). Refusals are logged as summary lines
 * (`http.rejected`, `http.connections_capped`), not one per connection.
 */
export const serveNode = (options: NodeServeOptions, onListening?: (info: AddressInfo) => void): ServerType => {
  const { http } = options;
  const logger = options.logger ?? silentLogger;
  const rejected = throttleSummary({ logger, clock: systemClock, msg: "http.rejected", keyField: "reason", level: "info", everyMs: 60_000 });
  const capped = throttleSummary({ logger, clock: systemClock, msg: "http.connections_capped", keyField: "client", everyMs: 60_000 });
  const listener = getRequestListener(options.fetch, { hostname: options.hostname, errorHandler: requestErrorAnswer(logger, rejected) });
  const server: Server = createServer(
    {
      headersTimeout: http.headersTimeoutMs,
      requestTimeout: http.requestTimeoutMs,
      keepAliveTimeout: http.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(http.headersTimeoutMs, 1_000),
    },
    listener,
  );
  server.maxConnections = http.maxConnections;
  const perAddress = connectionsPerAddress(http);
  if (perAddress < http.maxConnections) capConnectionsPerAddress(server, { max: perAddress, onRefused: (group) => capped(group, undefined, { max: perAddress }) });
  server.on("clientError", answerClientError(rejected));
  server.listen(options.port, options.hostname, () => onListening?.(server.address() as AddressInfo));
  return server;
};
