import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener, type ServerType } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { systemClock } from "../clock.js";
import type { ServiceConfig } from "../config/config-schema.js";
import { connectionsPerAddress } from "../config/edge-schema.js";
import { throttleSummary } from "../limits/throttle-summary.js";
import { silentLogger, type Logger } from "../logging/logger.js";
import { admitConnections, type ConnectionAdmission } from "./connection-cap.js";
import { cutSlowReaders } from "./slow-readers.js";
import { answerClientError, requestErrorAnswer } from "./node-rejections.js";
import { answerNodeRefusals, nodeFront } from "./node-front.js";
import { partsOf, WRITES_PARTED_ANSWERS, type AnswerParts } from "../http/parted-answer.js";

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
 * open at once, fairly: at most `maxConnectionsPerAddress` from one client address (more are answered 429 and
 * closed), a full server closing an idle connection of the address holding the most for a new address, and room
 * beyond the cap for `/health` and `/ready` (see `connection-cap.ts`). An SSE client that does not read is cut
 * (`sseMaxBufferedBytes`, `sseStalledMs`; see `slow-readers.ts`). Node checks the timeouts every `min(headersTimeoutMs, 1 s)`.
 *
 * What Node refuses before the app runs is answered with the error envelope, not an empty body: 400 for a
 * request it cannot parse, whose target is no path (`POST *`) or that lacks `Host`, 431 for headers over its
 * limit, 408 for a request that did not arrive in time (`node-rejections.ts`), 417 for an `Expect` it does not
 * meet and 405 for `CONNECT` (`node-front.ts`). `GET /health` is answered there too, before the app, in the turn
 * that read it. Refusals are logged as summary lines (`http.rejected`, `http.connections_capped`), not one per
 * connection.
 */
export const serveNode = (options: NodeServeOptions, onListening?: (info: AddressInfo) => void): ServerType => {
  const { http } = options;
  const logger = options.logger ?? silentLogger;
  const rejected = throttleSummary({ logger, clock: systemClock, msg: "http.rejected", keyField: "reason", level: "info", everyMs: 60_000 });
  const capped = throttleSummary({ logger, clock: systemClock, msg: "http.connections_capped", keyField: "client", everyMs: 60_000 });
  const evicted = throttleSummary({ logger, clock: systemClock, msg: "http.idle_connections_closed", keyField: "client", level: "info", everyMs: 60_000 });
  const slowReaders = cutSlowReaders({ maxBufferedBytes: http.sseMaxBufferedBytes, stalledMs: http.sseStalledMs, onCut: (client) => rejected("slow-reader", client) });
  const listener = getRequestListener(writingPartedAnswers(options.fetch, slowReaders.watch), { hostname: options.hostname, errorHandler: requestErrorAnswer(logger, rejected) });
  // Made once the server exists; asked at each request.
  const admission: { current?: ConnectionAdmission } = {};
  const server: Server = createServer(
    {
      headersTimeout: http.headersTimeoutMs,
      requestTimeout: http.requestTimeoutMs,
      keepAliveTimeout: http.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(http.headersTimeoutMs, 1_000),
      // Answered with the envelope by `nodeFront` instead of Node's bare 400.
      requireHostHeader: false,
    },
    nodeFront(listener, (socket) => admission.current?.probesOnly(socket) === true),
  );
  answerNodeRefusals(server, rejected);
  const perAddress = connectionsPerAddress(http);
  admission.current = admitConnections(server, {
    maxConnections: http.maxConnections,
    perAddress,
    onRefused: (group, reason) => capped(group, undefined, reason === "address" ? { max: perAddress } : { reason: "server full", max: http.maxConnections }),
    onEvicted: (group) => evicted(group, undefined, { detail: "idle connections closed to make room for other addresses" }),
  });
  server.on("close", () => slowReaders.stop());
  server.on("clientError", answerClientError(rejected));
  // A listen queue as long as the connections the server takes (the kernel caps it at net.core.somaxconn): a burst of
  // new connections while the loop is busy waits to be accepted instead of having its SYNs dropped, which a client
  // sees as seconds of silence (its SYN sent again after 1, 3, 7 s), not as an answer. Node's default is 511.
  server.listen({ port: options.port, host: options.hostname, backlog: http.maxConnections }, () => onListening?.(server.address() as AddressInfo));
  return server;
};

/** The headers of an answer as `writeHead` takes them (`Set-Cookie` kept as its several values). */
const headerRecord = (headers: Headers): Record<string, string | string[]> => {
  const record: Record<string, string | string[]> = {};
  for (const [name, value] of headers) if (name !== "set-cookie") record[name] = value;
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) record["set-cookie"] = cookies;
  return record;
};

/** Writes a parted answer's head, then its chunks one after another (Node corks the writes of one tick into one `writev`). */
const writeParts = (outgoing: ServerResponse, parts: AnswerParts, answer: Response): void => {
  // The headers as the route gave them, unless something read the answer's headers since (and may have changed them).
  const headers: Record<string, string | string[]> = parts.headers ?? headerRecord(answer.headers);
  headers["Content-Length"] = String(parts.length);
  outgoing.writeHead(parts.status, headers);
  const last = parts.chunks.length - 1;
  for (let i = 0; i < last; i++) outgoing.write(parts.chunks[i]);
  outgoing.end(parts.chunks[last]);
};

/**
 * The app's `fetch`, telling it that its parted answers (`parted-answer.ts`) are written here: each chunk as it
 * is, no array joining them, while @hono/node-server writes every other answer. A parted answer, once written,
 * is handed to @hono/node-server as its "already sent" answer.
 */
const writingPartedAnswers = (fetch: NodeServeOptions["fetch"], watchStream: (outgoing: ServerResponse) => void): NodeServeOptions["fetch"] => {
  // Made into an answer without a light-`Response` cache (reading its body does that), whichever `Response` built
  // it: @hono/node-server writes a cached answer at once, and only looks for its "already sent" header otherwise.
  void RESPONSE_ALREADY_SENT.body;
  const written = (answer: Response, env: { readonly outgoing?: ServerResponse }): Response => {
    const parts = partsOf(answer);
    // An event stream's client must read it: one that does not is cut once its unread bytes pass a bound (`slow-readers.ts`).
    if (!parts && env.outgoing && answer.headers.get("content-type")?.startsWith("text/event-stream")) watchStream(env.outgoing);
    if (!parts || !env.outgoing) return answer;
    writeParts(env.outgoing, parts, answer);
    return RESPONSE_ALREADY_SENT;
  };
  return (request, env) => {
    const nodeEnv = env as { outgoing?: ServerResponse; [WRITES_PARTED_ANSWERS]?: boolean };
    nodeEnv[WRITES_PARTED_ANSWERS] = true;
    const answer = fetch(request, env);
    return answer instanceof Promise ? answer.then((a) => written(a, nodeEnv)) : written(answer, nodeEnv);
  };
};
