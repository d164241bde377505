/**
 * One search request to the upstream: `POST {base}/ConsultaAereo/Consultar` with the session's bearer
 * token. A 401 makes the session log in once more and the request go again; every other failure becomes a
 * core tagged error, read from the status and headers, never from an upstream's stack trace.
 */
import type { Context } from "@opentelemetry/api";
import {
  AuthError,
  BusinessError,
  HttpStatusError,
  MalformedPayload,
  PermissionDenied,
  RateLimited,
  SourceTimeout,
  readUpstreamAnswer,
  upstreamFailure,
  type SourceError,
} from "@voar/core";
import { withTimeout } from "../internal/abortable.js";
import type { HttpReply } from "../transport/http-transport.js";
import { retryAfterMs } from "./retry-after.js";
import type { UpstreamContext } from "./upstream-context.js";

/** A successful exchange: the parsed body and the pace the upstream asks for, when it says. */
export interface ConsultarResult {
  readonly json: unknown;
  /** `Progresso.ProximaConsultaMs`, else `Retry-After`, when present. */
  readonly paceMs?: number | undefined;
  /** `Date.now()` when the request left (after any login it needed). */
  readonly sentAt: number;
  /** `Date.now()` when its answer had been read. */
  readonly receivedAt: number;
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u);

/** The pace an answer asks for: `Progresso.ProximaConsultaMs` of the body, else a `Retry-After` header. */
const paceOf = (json: unknown, reply: HttpReply): number | undefined => {
  const hint = isRecord(json) && isRecord(json.Progresso) ? json.Progresso.ProximaConsultaMs : undefined;
  if (typeof hint === "number" && Number.isFinite(hint) && hint >= 0) return hint;
  return retryAfterMs(reply.header("retry-after"));
};

const parse = (reply: HttpReply): unknown => {
  try {
    return JSON.parse(reply.text);
  } catch {
    throw new MalformedPayload({ detail: `o corpo não é JSON (HTTP ${reply.status})` });
  }
};

/**
 * Classifies an answer that is not a success (the 401 is handled by the caller): 429 rate limited, 5xx/408
 * a retryable status, 403 a permission refusal (never retried), another 4xx a business error when its
 * envelope carries a message (a permission refusal when that message is about permission), else the status.
 */
const failure = (ctx: UpstreamContext, reply: HttpReply): SourceError => {
  if (reply.status === 429) return new RateLimited({ retryAfterMs: retryAfterMs(reply.header("retry-after")) });
  if (reply.status >= 500 || reply.status === 408 || reply.status < 200) return new HttpStatusError({ status: reply.status });
  // A 4xx may carry an envelope whose message says more (cleaned by the tolerant reader).
  let message: string | undefined;
  try {
    const read = readUpstreamAnswer(JSON.parse(reply.text), { airports: ctx.airports, sourceId: "upstream" });
    if (!(read instanceof MalformedPayload)) message = read.errorMessage;
  } catch {
    message = undefined; // not JSON: the status says it all
  }
  if (reply.status === 403) return new PermissionDenied({ detail: message ?? "HTTP 403" });
  if (message === undefined) return new HttpStatusError({ status: reply.status });
  return upstreamFailure({ success: false, errorMessage: message }) ?? new BusinessError({ detail: message });
};

/**
 * Sends one search request body and returns the parsed answer, or throws a tagged error (or the signal's
 * reason when it aborts).
 */
export const consultar = async (
  ctx: UpstreamContext,
  body: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
  trace?: Context,
  onSent?: (sentAt: number) => void,
): Promise<ConsultarResult> => {
  for (let renewed = false; ; renewed = true) {
    const token = await ctx.session.bearer(signal, trace, ctx.charge);
    // The limit follows the upstream's answer time: a request it is still answering is not abandoned for being slow.
    const timeoutMs = ctx.pace.timeoutMs();
    const limit = withTimeout(signal, timeoutMs, () => new SourceTimeout({ afterMs: timeoutMs }));
    const sentAt = Date.now();
    onSent?.(sentAt);
    let reply: HttpReply;
    try {
      reply = await ctx.transport.send({
        url: `${ctx.baseUrl}/ConsultaAereo/Consultar`,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
        signal: limit.signal,
        trace,
        source: ctx.sourceId,
      });
    } finally {
      limit.done();
    }
    const receivedAt = Date.now();
    ctx.pace.observe(receivedAt - sentAt);
    if (reply.status === 401) {
      if (renewed || !ctx.session.canRenew) throw new AuthError({ detail: "token recusado pelo fornecedor (HTTP 401)" });
      ctx.session.refused(token);
      continue;
    }
    if (reply.status < 200 || reply.status >= 300) throw failure(ctx, reply);
    const json = parse(reply);
    return { json, paceMs: paceOf(json, reply), sentAt, receivedAt };
  }
};
