import { InvalidRequest, PayloadTooLarge } from "../errors/service-errors.js";

/**
 * Reading request bodies under a size limit, with Web streams only. The limit holds while the bytes
 * arrive: a declared `Content-Length` over it is refused before reading, and a body without one (chunked,
 * or lying about its length) is cut off as soon as it passes the limit, so memory never holds more.
 */

/**
 * The client went away while its body was arriving (the connection closed mid-body): nobody is left to
 * answer, so it is logged as an abort, not as an error of the service.
 */
export class ClientAborted extends Error {
  readonly _tag = "ClientAborted";
  constructor(override readonly cause: unknown) {
    super("the client aborted the request");
  }
}

/**
 * Reads the raw bytes of a body; throws {@link PayloadTooLarge} past `limitBytes`, {@link ClientAborted} when
 * the client disconnects mid-body.
 */
export const readBodyBytes = async (request: Request, limitBytes: number): Promise<Uint8Array> => {
  const declared = request.headers.get("content-length");
  const length = declared !== null && /^\d+$/.test(declared) ? Number(declared) : undefined;
  if (length !== undefined && length > limitBytes) throw new PayloadTooLarge(limitBytes);
  if (length !== undefined) {
    // A declared length within the limit: the HTTP layer frames the body by it (a body cannot run past its
    // Content-Length), so it is read at once. Cheaper than a stream on Node: @hono/node-server reads it
    // straight from the socket, without building a Web Request and its ReadableStream.
    try {
      return new Uint8Array(await request.arrayBuffer());
    } catch (e) {
      // A body read twice is a bug (TypeError); anything else here is the connection failing mid-body.
      if (e instanceof TypeError && !request.signal.aborted) throw e;
      throw new ClientAborted(e);
    }
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (e) {
      if (request.signal.aborted) throw new ClientAborted(e);
      throw e;
    }
    const { done, value } = step;
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel("body over the size limit");
      throw new PayloadTooLarge(limitBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
};

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Reads a body as UTF-8 text under the limit; invalid UTF-8 is an invalid request naming `body`. */
export const readBodyText = async (request: Request, limitBytes: number): Promise<string> => {
  const bytes = await readBodyBytes(request, limitBytes);
  try {
    return utf8.decode(bytes);
  } catch (e) {
    if (e instanceof TypeError) throw new InvalidRequest([{ Campo: "body", Mensagem: "O corpo da requisição deve ser texto UTF-8 válido." }]);
    throw e;
  }
};

/**
 * Parses a body's text as JSON. Text that is not JSON is an invalid request naming `body` (the parser's own
 * message, which may quote the input, is not passed on).
 */
export const parseJsonText = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    // SyntaxError for bad JSON; RangeError if an engine gives up on extreme nesting. Both mean "not a body we read".
    if (e instanceof SyntaxError || e instanceof RangeError) {
      throw new InvalidRequest([{ Campo: "body", Mensagem: "O corpo da requisição deve ser um objeto JSON válido." }]);
    }
    throw e;
  }
};

/** Reads a JSON body under the limit (see {@link readBodyText} and {@link parseJsonText}). */
export const readJsonBody = async (request: Request, limitBytes: number): Promise<unknown> => parseJsonText(await readBodyText(request, limitBytes));
