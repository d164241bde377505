/**
 * Serves a fake upstream (or any fetch handler) on a real socket with `@hono/node-server`, on the loopback
 * interface by default: for integration tests and benchmarks.
 */
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";

/** A server on a socket. */
export interface ServedOnNode {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Stops accepting connections, ends the open ones, resolves once closed. */
  close(): Promise<void>;
}

/** Options of {@link serveOnNode}. */
export interface ServeOnNodeOptions {
  /** Default 0: a free port. */
  readonly port?: number | undefined;
  /** Default `127.0.0.1`. */
  readonly hostname?: string | undefined;
}

/**
 * Serves a fetch handler.
 *
 * @example
 * const served = await serveOnNode(upstream.app.fetch);
 * const source = createUpstreamSource({ baseUrl: `${served.origin}/api`, credentials });
 * await served.close();
 */
export const serveOnNode = (fetch: (request: Request) => Response | Promise<Response>, options: ServeOnNodeOptions = {}): Promise<ServedOnNode> =>
  new Promise((resolve) => {
    const server = serve({ fetch, port: options.port ?? 0, hostname: options.hostname ?? "127.0.0.1" }, (info: AddressInfo) =>
      resolve({
        origin: `http://${options.hostname ?? "127.0.0.1"}:${info.port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            if ("closeAllConnections" in server) server.closeAllConnections();
            server.close((error?: Error) => (error ? fail(error) : done()));
          }),
      }),
    );
  });
