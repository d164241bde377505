import { isSourceError } from "@voar/core";
import { createClient, type VoarClient } from "@voar/http-adapter/fetch";
import type { DemoConfig } from "../../shared/demo-config.js";

/**
 * The page's client of the API: the SDK's typed client (`@voar/http-adapter/fetch`) with the demo's API key.
 * It follows each search on the SSE stream, and goes on by polling if the stream breaks mid-search.
 */
export const createVoarClient = (config: DemoConfig): VoarClient =>
  createClient({ baseUrl: new URL(config.apiBaseUrl, window.location.origin).href, token: config.apiKey, transport: "auto" });

/** A sentence a person can act on, for whatever a search failed with. */
export const describeSearchError = (error: unknown): string => {
  if (!isSourceError(error)) return error instanceof Error ? `Erro inesperado: ${error.message}` : "Erro inesperado.";
  switch (error._tag) {
    case "BusinessError":
    case "PermissionDenied":
      return error.detail;
    case "AuthError":
      return `A API recusou a chave de acesso (${error.detail}). Recarregue a página.`;
    case "RateLimited":
      return "Muitas buscas em pouco tempo: aguarde alguns segundos e tente de novo.";
    case "TransportError":
      return `Não foi possível falar com o serviço (${error.detail}). Ele está rodando? Rode npx -y pnpm@10.34.9 demo de novo.`;
    case "SourceTimeout":
      return "A busca demorou demais e foi interrompida.";
    case "HttpStatusError":
      return error.status === 502
        ? "Nenhuma fonte respondeu: todas as companhias ou agências falharam (HTTP 502)."
        : error.status === 504
          ? "As fontes não responderam a tempo (HTTP 504)."
          : `O serviço respondeu HTTP ${error.status}.`;
    case "MalformedPayload":
      return `Resposta fora do contrato: ${error.detail}.`;
    case "SourceUnavailable":
    case "RequestBudgetExhausted":
      return "O fornecedor está temporariamente indisponível: aguarde alguns segundos e tente de novo.";
  }
};
