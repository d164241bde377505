import { maxHeaderSize, STATUS_CODES, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { RequestError } from "@hono/node-server";
import { toErrorResponse } from "../errors/error-table.js";
import { HeadersTooLarge, RequestTimeout } from "../errors/edge-errors.js";
import { InternalError, InvalidRequest, type ServiceError } from "../errors/service-errors.js";
import type { Logger } from "../logging/logger.js";

/**
 * What the Node server refuses before any route runs (a request it cannot read, or one that did not arrive
 * in time), answered with the service's error envelope instead of Node's empty answers.
 */

const FRAMING = "A requisição HTTP está malformada e não pôde ser lida: a linha de requisição, os cabeçalhos ou o enquadramento do corpo não seguem o protocolo.";
const TARGET = "O alvo da requisição é inválido: use um caminho que comece com / (por exemplo /api/ConsultaAereo/Consultar).";
export const TARGET_OR_HOST = "O alvo da requisição ou o cabeçalho Host é inválido: envie um caminho que comece com / (por exemplo /api/ConsultaAereo/Consultar) e um Host válido.";

/**
 * A whole HTTP/1.1 answer for a socket that no route answers: status line, `Content-Type` and
 * `Content-Length`, `X-Request-Id`, the error's own headers (`Retry-After`...), `Connection: close`, then the
 * envelope. Written straight to the socket, as nothing else will answer on it.
 */
export const rawErrorAnswer = (e: ServiceError, requestId: string = crypto.randomUUID()): string => {
  const { status, headers, body } = toErrorResponse(e, requestId);
  const json = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`,
    "Content-Type: application/json; charset=UTF-8",
    `Content-Length: ${Buffer.byteLength(json)}`,
    "Cache-Control: no-store",
    `X-Request-Id: ${requestId}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "Connection: close",
  ];
  return `${lines.join("\r\n")}\r\n\r\n${json}`;
};

/** The service error of a parser or timeout error of Node's HTTP server (`clientError`), by its code. */
export const clientErrorOf = (code: string | undefined): ServiceError => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new HeadersTooLarge(maxHeaderSize);
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new RequestTimeout();
    case "HPE_INVALID_URL":
      return new InvalidRequest([], TARGET);
    default:
      return new InvalidRequest([], FRAMING);
  }
};

/** Node's answer in flight on a socket (`socket._httpMessage`, what Node's own `clientError` default reads). */
const inFlightAnswer = (socket: Duplex): ServerResponse | null | undefined => (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;

/**
 * The server's `clientError` listener: answers a request Node cannot parse (400, headers too large 431) or
 * that did not arrive in time (408) with the envelope, then closes the socket. Where Node's default would
 * cut short an answer still in flight on the socket to a request received whole (a good request pipelined
 * before the bad one), it lets that answer finish first, so it is written whole and the envelope after it,
 * in order; an answer to the request that failed is not waited for. It does not answer when the client is
 * gone (`ECONNRESET`) or the socket cannot be written. `note` hears of each refusal
 * (for a summarised log).
 */
export const answerClientError = (note: (reason: string, client: string | undefined) => void) => {
  // A parser in error may report again on more bytes: one answer per socket.
  const answered = new WeakSet<Duplex>();
  return (err: Error & { readonly code?: string }, socket: Duplex): void => {
    if (answered.has(socket)) return;
    answered.add(socket);
    const client = (socket as Duplex & { remoteAddress?: string }).remoteAddress;
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    note(err.code ?? "unknown", client);
    const answer = () => {
      if (socket.writable) socket.write(rawErrorAnswer(clientErrorOf(err.code)));
      socket.destroy();
    };
    const pending = inFlightAnswer(socket);
    // Only an answer to a request received whole is let finish: one still reading its body would wait forever.
    if (pending && !pending.writableFinished && pending.req.complete) {
      pending.once("finish", answer);
      pending.once("close", () => socket.destroy());
    } else answer();
  };
};

/**
 * The `errorHandler` of `@hono/node-server`'s request listener: a request whose target or `Host` it cannot
 * make a URL of (`POST *`, `GET foo`, `Host: a b`) gets the 400 envelope; anything else that escapes the app
 * (a bug: the app answers its own errors) is logged and answered `ERRO_INTERNO`.
 */
export const requestErrorAnswer =
  (logger: Logger, note: (reason: string, client: string | undefined) => void) =>
  (err: unknown): Response => {
    let error: ServiceError;
    if (err instanceof RequestError) {
      error = new InvalidRequest([], TARGET_OR_HOST);
      note("invalid-target", undefined);
    } else {
      logger.log({ level: "error", msg: "unhandled", error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      error = new InternalError(err);
    }
    const requestId = crypto.randomUUID();
    const { status, headers, body } = toErrorResponse(error, requestId);
    return new Response(JSON.stringify(body), {
      status,
      headers: { ...headers, "Content-Type": "application/json; charset=UTF-8", "Cache-Control": "no-store", "X-Request-Id": requestId },
    });
  };
