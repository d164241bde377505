import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { InstanceOverloaded } from "../errors/instance-overloaded.js";
import { toErrorResponse } from "../errors/error-table.js";
import { ExpectationFailed } from "../errors/edge-errors.js";
import { InvalidRequest, MethodNotAllowed, type ServiceError } from "../errors/service-errors.js";
import { rawErrorAnswer, TARGET_OR_HOST } from "./node-rejections.js";

/**
 * What the Node entry answers itself, on the raw request, before the app: liveness (`GET /health`), and the
 * requests Node would otherwise refuse with an empty answer or a closed socket (an HTTP/1.1 request without
 * `Host`, an `Expect` it does not meet, `CONNECT`), each with the error envelope.
 */

const HEALTH = Buffer.from(JSON.stringify({ status: "ok" }));
const NO_HOST = "Toda requisição HTTP/1.1 precisa do cabeçalho Host (RFC 9112 §3.2).";
/** The methods some route of the service answers: what a `CONNECT` is told to use instead. */
const METHODS = ["GET", "POST", "PUT", "OPTIONS"];

/** Writes a service error's envelope as a whole answer on a request Node parsed, then lets the connection close. */
const answerError = (res: ServerResponse, e: ServiceError): void => {
  const requestId = crypto.randomUUID();
  const { status, headers, body } = toErrorResponse(e, requestId);
  const json = JSON.stringify(body);
  res.shouldKeepAlive = false;
  res.writeHead(status, { ...headers, "Content-Type": "application/json; charset=UTF-8", "Content-Length": Buffer.byteLength(json), "Cache-Control": "no-store", "X-Request-Id": requestId });
  res.end(json);
};

/**
 * The request listener with the entry's own answers in front of the app's: `GET`/`HEAD /health` is answered at
 * once, in the same turn of the event loop that read the request, by no middleware, store or promise: under any
 * load a liveness probe (1-2 s timeouts) hears the process as soon as its loop reads the socket, never after the
 * work queued in the app. An HTTP/1.1 request without `Host` (`/health` too) gets the 400 envelope naming it, and a
 * target that is no path (`OPTIONS *`, `POST *`) the 400 envelope; both close the connection.
 */
export const nodeFront =
  (app: (req: IncomingMessage, res: ServerResponse) => unknown, probesOnly: (socket: Socket) => boolean = () => false) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? "";
    // Checked first, for /health too (as the README says): a request an HTTP/1.1 server must refuse is refused.
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
      answerError(res, new InvalidRequest([{ Campo: "Host", Mensagem: "Obrigatório em HTTP/1.1." }], NO_HOST));
      return;
    }
    if ((url === "/health" || url.startsWith("/health?")) && (req.method === "GET" || req.method === "HEAD")) {
      res.writeHead(200, { "Content-Type": "application/json; charset=UTF-8", "Content-Length": HEALTH.length, "Cache-Control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : HEALTH);
      return;
    }
    // A connection let in beyond the server's cap (see `connection-cap.ts`) serves the readiness probe and nothing else.
    if (probesOnly(req.socket) && !((url === "/ready" || url.startsWith("/ready?")) && (req.method === "GET" || req.method === "HEAD"))) {
      answerError(res, new InstanceOverloaded(1));
      return;
    }
    // The asterisk form (`OPTIONS *`, `POST *`): no route of the service has it; the 400 closes the connection.
    if (url === "*") {
      answerError(res, new InvalidRequest([], TARGET_OR_HOST));
      return;
    }
    void app(req, res);
  };

/**
 * Answers on `server` what Node refuses without a word: an `Expect` other than `100-continue` (417 with the
 * envelope, instead of Node's bare 417) and `CONNECT` (405 with `Allow`, instead of a socket closed unanswered).
 * `note` hears of each refusal (for a summarised log).
 */
export const answerNodeRefusals = (server: Server, note: (reason: string, client: string | undefined) => void): void => {
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    note("expectation", req.socket.remoteAddress);
    answerError(res, new ExpectationFailed(String(req.headers.expect ?? "")));
  });
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    note("connect", req.socket.remoteAddress);
    socket.on("error", () => undefined);
    if (socket.writable) socket.end(rawErrorAnswer(new MethodNotAllowed("CONNECT", METHODS)));
    else socket.destroy();
  });
};
