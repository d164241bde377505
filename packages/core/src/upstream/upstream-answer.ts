/**
 * The tolerant reader of upstream answers: any JSON a ConsultaAereo upstream sends, in either data shape,
 * becomes an {@link UpstreamAnswer} with domain offers, or a {@link MalformedPayload} when nothing usable
 * is in it. It never throws.
 */
import type { Offer } from "../domain/offer.js";
import { MalformedPayload } from "../errors/source-errors.js";
import { upstreamEnvelopeSchema, upstreamResultHeaderSchema, type UpstreamResultHeader } from "./envelope-schema.js";
import { activeProvidersOf, leaseIdOf, searchTokenOfAnswer } from "./envelope-hints.js";
import { errorMessageOf } from "./error-message.js";
import { issueReason, SkipLog, type SkippedItems } from "./item-reader.js";
import { modeAItemCount, readModeAOffers } from "./mode-a-offers.js";
import { modeBItemCount, readModeBOffers } from "./mode-b-offers.js";
import { withUniqueIds } from "./offer-ids.js";
import { createOfferInterner } from "./offer-interner.js";
import type { ReadContext } from "./read-context.js";

/** What an upstream answer says, in domain terms. */
export interface UpstreamAnswer {
  /** `Success`; when absent, true unless the answer carries an error message. */
  readonly success: boolean;
  /** `Completed`; when absent, true (an answer that does not say it is partial is taken as final). */
  readonly completed: boolean;
  /** One clean line (`MensagemErro`, else an error object's `Message`); never a stack trace. */
  readonly errorMessage?: string | undefined;
  /** The lease to poll with while incomplete: `ExErro.Extensions.LeaseId`, else `Data[i].LeaseId`. */
  readonly leaseId?: string | undefined;
  /** The search token: the envelope's `Token`, else `Data[i].TokenConsulta*`. */
  readonly searchToken?: string | undefined;
  /** Providers still searching (`ActiveProviders`), when the answer lists them. */
  readonly activeProviders?: readonly string[] | undefined;
  /**
   * `TotalItens`, or the number of items actually present when larger: single-airline answers say 0.
   * Items are price groups in Mode A, `Ida` and `Volta` offers in the Mode B shape.
   */
  readonly totalItems: number;
  /** The offers read, ids unique. */
  readonly offers: readonly Offer[];
  /** Items left out because they could not be read. */
  readonly skipped: SkippedItems;
}

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u);

const ENVELOPE_MEMBERS = ["Success", "Completed", "Data", "MensagemErro", "HasResult"] as const;

const malformed = (detail: string) => new MalformedPayload({ detail });

const readAnswer = (json: unknown, ctx: ReadContext): UpstreamAnswer | MalformedPayload => {
  if (!isRecord(json)) return malformed("a resposta não é um objeto JSON");
  if (!ENVELOPE_MEMBERS.some((m) => m in json)) return malformed("a resposta não tem o envelope ConsultaAereo");
  const parsed = upstreamEnvelopeSchema.safeParse(json);
  if (!parsed.success) return malformed(`envelope com ${issueReason(parsed.error)}`);
  const envelope = parsed.data;
  const items = envelope.Data ?? [];
  const records = items.filter(isRecord);
  const headers = records
    .map((r) => upstreamResultHeaderSchema.safeParse(r))
    .flatMap((h): UpstreamResultHeader[] => (h.success ? [h.data] : []));
  const errorMessage = errorMessageOf(envelope, headers);
  const success = envelope.Success ?? errorMessage === undefined;
  const searchToken = searchTokenOfAnswer(envelope, records);
  const log = new SkipLog();
  const offers: Offer[] = [];
  let present = 0;
  let candidates = 0;
  items.forEach((item, i) => {
    const path = `Data[${i}]`;
    if (!isRecord(item)) {
      candidates++;
      log.note(path, "item não é um objeto");
    } else if ("flights" in item) {
      const n = modeAItemCount(item);
      present += n;
      candidates += n;
      offers.push(...readModeAOffers(item, path, ctx, log, searchToken));
    } else if ("Ida" in item || "Volta" in item) {
      const n = modeBItemCount(item);
      present += n;
      candidates += n;
      offers.push(...readModeBOffers(item, path, ctx, log, searchToken));
    }
  });
  const { count, notes } = log.skipped;
  if (success && candidates > 0 && offers.length === 0 && count > 0) {
    return malformed(`nenhum dos ${candidates} itens pôde ser lido (${notes[0] ?? "formato inesperado"})`);
  }
  return {
    success,
    completed: envelope.Completed ?? true,
    ...(errorMessage === undefined ? {} : { errorMessage }),
    ...optional("leaseId", leaseIdOf(envelope, headers)),
    ...optional("searchToken", searchToken),
    ...optional("activeProviders", activeProvidersOf(headers)),
    totalItems: Math.max(Math.round(envelope.TotalItens ?? 0), present),
    offers: withUniqueIds(offers).map((ctx.interner ?? createOfferInterner()).offer),
    skipped: log.skipped,
  };
};

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

/**
 * Reads an upstream answer (the parsed JSON body) into domain terms. Tolerates what real upstreams send
 * (see decisions.md, "Semantics the real data shows"); leaves out, and notes in `skipped`, the items it
 * cannot read; answers {@link MalformedPayload} when the body is not an envelope, or when it claims success
 * but not one of its items can be read. Never throws: anything unforeseen also becomes a MalformedPayload.
 *
 * @example
 * const read = readUpstreamAnswer(await response.json(), { airports, sourceId: "upstream" });
 * if (read instanceof MalformedPayload) return fail(read);
 * const failure = upstreamFailure(read);
 * if (failure) return fail(failure);
 * emit(read.offers);
 */
export const readUpstreamAnswer = (json: unknown, ctx: ReadContext): UpstreamAnswer | MalformedPayload => {
  try {
    return readAnswer(json, ctx);
  } catch (error) {
    // The schemas rule out what is known to throw; this guard keeps the promise for what is not.
    return malformed(`erro inesperado ao ler a resposta (${error instanceof Error ? error.name : typeof error})`);
  }
};
