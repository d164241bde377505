/**
 * The transport over `fetch`: Node, Deno, Bun, workerd and browsers alike. Connection pooling is the
 * runtime's business.
 */
import { untilAborted } from "../internal/abortable.js";
import type { FetchLike, HttpTransport } from "./http-transport.js";
import { transportFailure } from "./transport-failure.js";

/**
 * A transport over a `fetch` (default: the global one, looked up at each call so tests may replace it).
 *
 * @example
 * const transport = createFetchTransport();
 * const reply = await transport.send({ url, method: "POST", headers: {}, body: "{}", signal });
 */
export const createFetchTransport = (fetchImpl?: FetchLike): HttpTransport => ({
  async send(request) {
    const doFetch: FetchLike = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
    let response: Response;
    try {
      // Raced with the signal too: a `fetch` that ignores it (some test doubles do) must not hold up a cancellation.
      const init = { method: request.method, headers: request.headers, body: request.body, signal: request.signal };
      response = await untilAborted(doFetch(request.url, init), request.signal);
    } catch (error) {
      throw transportFailure(error, request.signal, "falha ao enviar");
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw transportFailure(error, request.signal, "resposta interrompida");
    }
    return { status: response.status, header: (name) => response.headers.get(name) ?? undefined, text };
  },
  close: () => Promise.resolve(),
});
