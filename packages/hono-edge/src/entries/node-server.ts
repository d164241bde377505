import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { serve, type ServerType } from "@hono/node-server";
import type { ServiceConfig } from "../config/config-schema.js";

/** Where and how {@link serveNode} listens. */
export interface NodeServeOptions {
  readonly fetch: (request: Request, env: unknown) => Response | Promise<Response>;
  readonly port: number;
  readonly hostname: string;
  /** The server's limits (`config.http`): timeouts and the connection cap. */
  readonly http: ServiceConfig["http"];
}

/**
 * Serves an app on Node (`@hono/node-server`) with explicit limits, well below Node's defaults, so that slow
 * or idle clients cannot hold connections: the headers must arrive within `headersTimeoutMs` and the whole
 * request within `requestTimeoutMs` (Node answers 408 and closes the connection; slow-loris), an idle
 * keep-alive connection closes after `keepAliveTimeoutMs`, and at most `maxConnections` are open at once
 * (more are closed as they arrive). Node checks the timeouts every `min(headersTimeoutMs, 1 s)`.
 */
export const serveNode = (options: NodeServeOptions, onListening?: (info: AddressInfo) => void): ServerType => {
  const { http } = options;
  const server = serve(
    {
      fetch: options.fetch,
      port: options.port,
      hostname: options.hostname,
      serverOptions: {
        headersTimeout: http.headersTimeoutMs,
        requestTimeout: http.requestTimeoutMs,
        keepAliveTimeout: http.keepAliveTimeoutMs,
        connectionsCheckingInterval: Math.min(http.headersTimeoutMs, 1_000),
      },
    },
    onListening,
  ) as Server;
  server.maxConnections = http.maxConnections;
  return server;
};
