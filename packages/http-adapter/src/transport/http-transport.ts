/**
 * The one thing the adapter asks of HTTP: send a request, get the status, headers and whole body back.
 * Two implementations: undici on Node (`undici-transport.ts`) and `fetch` everywhere (`fetch-transport.ts`).
 */

import type { Context } from "@opentelemetry/api";

/** A request to send. */
export interface HttpRequest {
  readonly url: string;
  readonly method: "POST";
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Aborting it aborts the request in flight. */
  readonly signal: AbortSignal;
  /**
   * The OpenTelemetry context the exchange belongs to (its span's parent), handed down explicitly so that
   * nesting holds without an asynchronous context manager. Default: the active context.
   */
  readonly trace?: Context | undefined;
  /**
   * Who the exchange is for, as its observer counts it: the source or run whose search asks (`upstream:latam`,
   * `upstream:all` for the all-airlines search, `upstream:otas`), or `upstream:login` for a login. Not sent.
   */
  readonly source?: string | undefined;
}

/** An answer, body read to its end. */
export interface HttpReply {
  readonly status: number;
  /** A response header (case-insensitive), or undefined. */
  header(name: string): string | undefined;
  readonly text: string;
}

/**
 * Sends requests. `send` fails with a tagged `TransportError` or `SourceTimeout` when the exchange breaks,
 * and with the signal's reason when the signal aborts.
 */
export interface HttpTransport {
  send(request: HttpRequest): Promise<HttpReply>;
  /** Releases connections the transport owns. */
  close(): Promise<void>;
}

/** The `fetch` signature the fetch transport and the client accept. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
