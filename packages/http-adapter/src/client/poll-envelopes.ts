/**
 * Follows a search by polling `POST {base}/ConsultaAereo/Consultar`: the request, then the search id the
 * answer gives (`Token`, else `ExErro.Extensions.LeaseId`) with the same page, at the server's pace
 * (`Progresso.ProximaConsultaMs`), until `Completed`.
 *
 * - Conditional polls: each poll sends the `ETag` of the answer it has in `If-None-Match`; a `304` means the
 *   search has not changed, so nothing is yielded and the next poll follows at the same pace.
 * - A poll answered 404 `BUSCA_EXPIRADA` (the server no longer has the search: expired, or lost) starts the
 *   search again with the original request, once; when the request was itself a poll by id, there is no
 *   query to send again and it fails with a `BusinessError` that says so.
 * - A 429 or 503 waits the answer's `Retry-After` (or the poll interval) and asks again, a few times and
 *   within `maxDurationMs`; after that it fails with the tagged error of the answer.
 */
import { BusinessError, SourceTimeout } from "@voar/core";
import { sleep } from "../internal/abortable.js";
import { retryAfterMs } from "../upstream/retry-after.js";
import type { ResolvedClientOptions } from "./client-options.js";
import { answerError, envelopeOf, parseJson } from "./envelope-reader.js";
import { SEARCH_ROUTE, type ProgressiveRoute } from "./progressive-route.js";
import { postJson, type TextAnswer } from "./post-json.js";

const pagingOf = (request: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(request).filter(([k]) => /^(numeropagina|quantidadeporpagina)$/i.test(k)));

/** Whether a body polls a search by its id (rather than asking a query). */
const isPoll = (body: Readonly<Record<string, unknown>>): boolean => Object.keys(body).some((k) => /^(token|leaseid)$/i.test(k));

/** What the client reads of any progressive envelope (a search's or a calendar's). */
interface Progressive {
  readonly Completed: boolean;
  readonly Token?: string | null | undefined;
  readonly ExErro?: { readonly Extensions: { readonly LeaseId: string } } | null | undefined;
  readonly Progresso?: { readonly ProximaConsultaMs: number } | undefined;
}

/** The body that polls a running search, or the request again when the answer names no search id. */
const nextBody = (request: Readonly<Record<string, unknown>>, envelope: Progressive): Readonly<Record<string, unknown>> => {
  if (envelope.Token) return { Token: envelope.Token, ...pagingOf(request) };
  const lease = envelope.ExErro?.Extensions.LeaseId;
  return lease ? { LeaseId: lease, ...pagingOf(request) } : request;
};

/** Consecutive 429/503 answers waited out before giving up. */
const MAX_RETRIES = 5;
/** Searches started again after the server lost one. */
const MAX_RESTARTS = 1;

const isExpired = (answer: TextAnswer): boolean => {
  if (answer.status !== 404) return false;
  try {
    const json = JSON.parse(answer.text) as { Erro?: { Codigo?: unknown } | null } | null;
    return json?.Erro?.Codigo === "BUSCA_EXPIRADA";
  } catch {
    return false;
  }
};

/** The envelopes of a search (or, on its route, a calendar), polled; the last has `Completed: true`. */
export async function* pollEnvelopes<E extends Progressive>(
  o: ResolvedClientOptions,
  request: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
  route: ProgressiveRoute = SEARCH_ROUTE,
): AsyncGenerator<E> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let body = request;
  /** The answer this client holds for `body`: its tag, and its envelope. */
  let held: { readonly etag: string; readonly envelope: E } | undefined;
  let retries = 0;
  let restarts = 0;
  for (let n = 1; ; n++) {
    const conditional = held ? { "if-none-match": held.etag } : {};
    const answer = await postJson(o, route.poll, body, "application/json", signal, conditional);
    let envelope: E;
    let wait: number;
    if (answer.status === 304 && held) {
      // Unchanged since the answer held: nothing new to yield.
      retries = 0;
      envelope = held.envelope;
      wait = envelope.Progresso?.ProximaConsultaMs ?? o.pollIntervalMs;
    } else if (isExpired(answer) && body !== request) {
      if (isPoll(request)) {
        throw new BusinessError({ detail: "A busca expirou no servidor e não pode ser refeita: o pedido foi só um Token/LeaseId, sem a consulta. Envie a consulta de novo." });
      }
      if (restarts >= MAX_RESTARTS) throw new BusinessError({ detail: "A busca expirou no servidor de novo depois de refeita; envie a consulta mais tarde." });
      // The server lost the search (expired, or its store restarted): ask the query again at once.
      restarts++;
      body = request;
      held = undefined;
      continue;
    } else if ((answer.status === 429 || answer.status === 503) && retries < MAX_RETRIES) {
      const after = retryAfterMs(answer.retryAfter) ?? o.pollIntervalMs;
      if (elapsed() + after >= o.maxDurationMs) throw answerError(answer.status, parseJsonOrNull(answer.text), answer.retryAfter);
      retries++;
      await sleep(after, signal);
      continue;
    } else {
      retries = 0;
      envelope = envelopeOf<E>(answer.status, parseJson(answer.text, "a resposta"), answer.retryAfter, o.validate, route);
      yield envelope;
      if (envelope.Completed) return;
      wait = envelope.Progresso?.ProximaConsultaMs ?? o.pollIntervalMs;
    }
    if (n >= o.maxPolls || elapsed() >= o.maxDurationMs) throw new SourceTimeout({ afterMs: elapsed() });
    // The tag names the search's version and the page asked, whichever body asked it (query or id).
    if (answer.status !== 304) held = answer.etag ? { etag: answer.etag, envelope } : undefined;
    body = nextBody(request, envelope);
    await sleep(wait, signal);
  }
}

const parseJsonOrNull = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};
