/**
 * Follows a search on the service's Server-Sent Events stream, `POST {base}/ConsultaAereo/Stream`: one
 * event per snapshot whose `data` is the envelope, ending after the `Completed: true` one. A calendar's stream
 * sends changes between whole answers (`event: dias`, the days that changed): each is applied to the last
 * answer, and the client yields the whole calendar every time. The stream is parsed by `eventsource-parser`.
 * Keep-alive comments and `retry:` lines are ignored; an event carrying an error envelope ends the search with
 * its tagged error.
 */
import { MalformedPayload, TransportError } from "@voar/core";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { transportFailure } from "../transport/transport-failure.js";
import type { Envelope, ResolvedClientOptions } from "./client-options.js";
import { answerError, envelopeOf, parseJson } from "./envelope-reader.js";
import { SEARCH_ROUTE, type ProgressiveRoute } from "./progressive-route.js";
import { requestHeaders } from "./post-json.js";

/** What opening the stream gave: envelopes, or `unsupported` when the server has no stream (404 or 405). */
export type StreamOpening<E = Envelope> =
  | { readonly kind: "stream"; readonly envelopes: AsyncGenerator<E> }
  | { readonly kind: "unsupported"; readonly status: number };

/** The events of an SSE body, parsed by `eventsource-parser`; leaving early releases the connection. */
export async function* eventsOf(body: ReadableStream<Uint8Array>, signal: AbortSignal): AsyncGenerator<EventSourceMessage> {
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (error) {
        throw transportFailure(error, signal, "fluxo SSE interrompido");
      }
      if (step.done) return;
      parser.feed(decoder.decode(step.value, { stream: true }));
      while (pending.length > 0) yield pending.shift()!;
    }
  } finally {
    // Leaving early (the consumer stopped, or Completed arrived) must release the connection. A cancel that
    // fails means the stream is already gone, which is what cancelling wanted: nothing to report.
    await reader.cancel().catch(() => undefined);
  }
}

async function* envelopesOf<E extends { readonly Completed: boolean }>(body: ReadableStream<Uint8Array>, o: ResolvedClientOptions, signal: AbortSignal, route: ProgressiveRoute): AsyncGenerator<E> {
  let last: E | undefined;
  for await (const event of eventsOf(body, signal)) {
    const json = parseJson(event.data, "o evento SSE");
    const changes = route.changes;
    let envelope: E;
    if (changes && event.event === changes.event) {
      if (!last) throw new MalformedPayload({ detail: `evento ${changes.event} antes da primeira resposta inteira` });
      const change = envelopeOf<E>(200, json, undefined, o.validate, { ...route, check: changes.check });
      envelope = changes.apply(last as never, change as never) as E;
    } else envelope = envelopeOf<E>(200, json, undefined, o.validate, route);
    last = envelope;
    yield envelope;
    if (envelope.Completed) return;
  }
  throw new TransportError({ detail: "o fluxo SSE terminou antes de Completed" });
}

/** Opens the stream for a request (a search's, or on its route a calendar's). */
export const openStream = async <E extends { readonly Completed: boolean } = Envelope>(
  o: ResolvedClientOptions,
  request: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
  route: ProgressiveRoute = SEARCH_ROUTE,
): Promise<StreamOpening<E>> => {
  let response: Response;
  try {
    response = await o.fetch(`${o.baseUrl}${route.stream}`, {
      method: "POST",
      headers: requestHeaders(o, "text/event-stream"),
      body: JSON.stringify(request),
      signal,
    });
  } catch (error) {
    throw transportFailure(error, signal, `POST ${route.stream}`);
  }
  if (response.status === 404 || response.status === 405) {
    await response.body?.cancel();
    return { kind: "unsupported", status: response.status };
  }
  if (!response.ok) {
    const text = await response.text().catch((error: unknown) => {
      throw transportFailure(error, signal, "resposta interrompida");
    });
    throw answerError(response.status, parseJson(text, "a resposta"), response.headers.get("retry-after") ?? undefined);
  }
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream") || !response.body) {
    await response.body?.cancel();
    throw new MalformedPayload({ detail: "o servidor não respondeu um fluxo SSE" });
  }
  return { kind: "stream", envelopes: envelopesOf<E>(response.body, o, signal, route) };
};
