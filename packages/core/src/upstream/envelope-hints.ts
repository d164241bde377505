/**
 * Polling and progress hints an answer carries besides its offers: the lease id real clients poll with,
 * the search token and the providers still at work.
 */
import type { UpstreamEnvelope, UpstreamResultHeader } from "./envelope-schema.js";
import { searchTokenOf } from "./envelope-schema.js";

/** The polling lease an answer hands out: `ExErro.Extensions.LeaseId`, else a result item's `LeaseId`. */
export const leaseIdOf = (
  envelope: UpstreamEnvelope,
  headers: readonly UpstreamResultHeader[],
): string | undefined => {
  const fromError = [envelope.ExErro, envelope.Erro].map((e) =>
    typeof e === "object" && e !== null ? e.Extensions?.LeaseId : undefined,
  );
  return [...fromError, ...headers.map((h) => h.LeaseId)].find(
    (id): id is string => typeof id === "string" && id.trim() !== "",
  );
};

/** The search token of an answer: the envelope's `Token`, else a result item's `TokenConsulta*`. */
export const searchTokenOfAnswer = (
  envelope: UpstreamEnvelope,
  items: readonly Readonly<Record<string, unknown>>[],
): string | undefined => {
  if (typeof envelope.Token === "string" && envelope.Token.trim() !== "") return envelope.Token;
  return items.map(searchTokenOf).find((t) => t !== undefined);
};

/**
 * The providers an answer says are searching (`ActiveProviders` of the result items, merged, text only);
 * undefined when no item carries the member.
 */
export const activeProvidersOf = (headers: readonly UpstreamResultHeader[]): readonly string[] | undefined => {
  const lists = headers.map((h) => h.ActiveProviders).filter((l): l is unknown[] => Array.isArray(l));
  if (lists.length === 0) return undefined;
  const names = lists.flat().filter((n): n is string => typeof n === "string" && n.trim() !== "");
  return [...new Set(names.map((n) => n.trim()))];
};
