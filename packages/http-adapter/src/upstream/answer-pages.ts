/**
 * Reading the parts of an upstream answer that are not offers: the id to poll with, how many pages a Mode A
 * answer has, and the pages after the first (fetched once the offers they hold are wanted whole).
 */
import type { Context } from "@opentelemetry/api";
import { MalformedPayload, readUpstreamAnswer, type Offer, type ReadContext, type UpstreamAnswer } from "@voar/core";
import { consultar } from "./consultar.js";
import type { UpstreamContext } from "./upstream-context.js";

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u);

/** The id to poll with: the lease, else the envelope's `Token` (our own service's search id). */
export const pollIdOf = (json: unknown, answer: UpstreamAnswer): string | undefined => {
  if (answer.leaseId) return answer.leaseId;
  const token = isRecord(json) ? json.Token : undefined;
  return typeof token === "string" && token.trim() !== "" ? token : undefined;
};

/** Total pages of a Mode A answer (`pagination.totalPages`), 1 when it does not say. */
export const pagesOf = (json: unknown): number => {
  const pages = isRecord(json) && isRecord(json.pagination) ? json.pagination.totalPages : undefined;
  return typeof pages === "number" && pages > 1 ? Math.min(Math.floor(pages), 1_000) : 1;
};

/** The offers of pages 2 to `pages`, each asked with `bodyFor(page)`; throws the first malformed page's error. */
export const readPages = async (
  ctx: UpstreamContext,
  bodyFor: (page: number) => Readonly<Record<string, unknown>>,
  pages: number,
  readContext: ReadContext,
  signal: AbortSignal,
  trace: Context,
): Promise<Offer[]> => {
  const offers: Offer[] = [];
  for (let page = 2; page <= pages; page++) {
    const more = readUpstreamAnswer((await consultar(ctx, bodyFor(page), signal, trace)).json, readContext);
    if (more instanceof MalformedPayload) throw more;
    offers.push(...more.offers);
  }
  return offers;
};
