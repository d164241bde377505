/**
 * The transport over undici (Node): a keep-alive connection pool per upstream origin with a cap on
 * connections, and connect, headers and body timeouts, as `@effect/platform-node` wires undici.
 */
import { Agent, request, type Dispatcher } from "undici";
import type { HttpTransport } from "./http-transport.js";
import { transportFailure } from "./transport-failure.js";

/** Options of {@link createUndiciTransport}. */
export interface UndiciTransportOptions {
  /** A dispatcher of your own (an `Agent`, a `Pool`, a `MockAgent` in tests); then the options below are not used. */
  readonly dispatcher?: Dispatcher | undefined;
  /** Connections per origin. Default 16. */
  readonly connections?: number | undefined;
  /** How long an idle connection is kept open. Default 30 000 ms. */
  readonly keepAliveTimeoutMs?: number | undefined;
  /** Longest wait to connect. Default 10 000 ms. */
  readonly connectTimeoutMs?: number | undefined;
  /**
   * Longest wait for the response headers. Default 300 000 ms: a backstop only, each request's own limit (which
   * follows the upstream's answer times) ends it sooner.
   */
  readonly headersTimeoutMs?: number | undefined;
  /** Longest silence while the body arrives. Default 300 000 ms (a backstop, as above). */
  readonly bodyTimeoutMs?: number | undefined;
}

const headerOf = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
};

/**
 * A transport over undici. `close()` closes the pool it created (not a dispatcher you passed).
 *
 * @example
 * const transport = createUndiciTransport({ connections: 32, bodyTimeoutMs: 20_000 });
 */
export const createUndiciTransport = (options: UndiciTransportOptions = {}): HttpTransport => {
  const limits = {
    connectMs: options.connectTimeoutMs ?? 10_000,
    headersMs: options.headersTimeoutMs ?? 300_000,
    bodyMs: options.bodyTimeoutMs ?? 300_000,
  };
  const owned = options.dispatcher === undefined;
  const dispatcher =
    options.dispatcher ??
    new Agent({
      connections: options.connections ?? 16,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      connect: { timeout: limits.connectMs },
      headersTimeout: limits.headersMs,
      bodyTimeout: limits.bodyMs,
    });
  return {
    async send(req) {
      let response: Dispatcher.ResponseData;
      try {
        response = await request(req.url, { method: req.method, headers: req.headers, body: req.body, signal: req.signal, dispatcher });
      } catch (error) {
        throw transportFailure(error, req.signal, "falha ao enviar", limits);
      }
      let text: string;
      try {
        text = await response.body.text();
      } catch (error) {
        throw transportFailure(error, req.signal, "resposta interrompida", limits);
      }
      return { status: response.statusCode, header: (name) => headerOf(response.headers, name), text };
    },
    close: () => (owned ? dispatcher.close() : Promise.resolve()),
  };
};
