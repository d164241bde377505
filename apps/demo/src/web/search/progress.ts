import type { Envelope } from "@voar/http-adapter/fetch";

/**
 * How far a search has come, in percent: each source that is done (answered or failed) counts whole, and
 * one that has started sending offers counts half, so the bar moves as soon as offers arrive. 100 only
 * once the API says `Completed`.
 */
export const percentDone = (envelope: Envelope | undefined): number => {
  if (!envelope) return 0;
  if (envelope.Completed) return 100;
  const p = envelope.Progresso;
  if (!p || p.FontesTotal === 0) return 0;
  const answering = p.Fontes.filter((f) => f.Estado === "pendente" && f.Itens > 0).length;
  return Math.min(99, Math.floor(((p.FontesConcluidas + answering / 2) / p.FontesTotal) * 100));
};

/** The sources of a search that failed, with their messages. */
export const failedSources = (envelope: Envelope | undefined) => (envelope?.Progresso?.Fontes ?? []).filter((f) => f.Estado === "falhou");
