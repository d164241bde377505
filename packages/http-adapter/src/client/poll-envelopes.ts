/**
 * Follows a search by polling `POST {base}/ConsultaAereo/Consultar`: the request, then the search id the
 * answer gives (`Token`, else `ExErro.Extensions.LeaseId`) with the same page, at the server's pace
 * (`Progresso.ProximaConsultaMs`), until `Completed`.
 */
import { SourceTimeout } from "@voar/core";
import { sleep } from "../internal/abortable.js";
import type { Envelope, ResolvedClientOptions } from "./client-options.js";
import { envelopeOf, parseJson } from "./envelope-reader.js";
import { postJson } from "./post-json.js";

const pagingOf = (request: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(request).filter(([k]) => /^(numeropagina|quantidadeporpagina)$/i.test(k)));

/** The body that polls a running search, or the request again when the answer names no search id. */
const nextBody = (request: Readonly<Record<string, unknown>>, envelope: Envelope): Readonly<Record<string, unknown>> => {
  if (envelope.Token) return { Token: envelope.Token, ...pagingOf(request) };
  const lease = envelope.ExErro?.Extensions.LeaseId;
  return lease ? { LeaseId: lease, ...pagingOf(request) } : request;
};

/** The envelopes of a search, polled; the last has `Completed: true`. */
export async function* pollEnvelopes(o: ResolvedClientOptions, request: Readonly<Record<string, unknown>>, signal: AbortSignal): AsyncGenerator<Envelope> {
  const started = Date.now();
  let body = request;
  for (let n = 1; ; n++) {
    const response = await postJson(o, "/ConsultaAereo/Consultar", body, "application/json", signal);
    const envelope = envelopeOf(response.status, parseJson(response.text, "a resposta"), response.retryAfter, o.validate);
    yield envelope;
    if (envelope.Completed) return;
    if (n >= o.maxPolls || Date.now() - started >= o.maxDurationMs) throw new SourceTimeout({ afterMs: Date.now() - started });
    body = nextBody(request, envelope);
    await sleep(envelope.Progresso?.ProximaConsultaMs ?? o.pollIntervalMs, signal);
  }
}
