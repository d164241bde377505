import { isSourceError, parseSearchRequest } from "@voar/core";
import { airports } from "@voar/core/airports";
import { createClient, type FetchLike, type SearchRequest } from "@voar/http-adapter/fetch";
import type { PreparedSearch } from "./local-search.js";

/** Where the remote service is. */
export interface RemoteTarget {
  /** Base URL of the API, e.g. `http://localhost:8787/api`. */
  readonly baseUrl: string;
  /** Bearer token (an API key, or one issued by `POST /Token`). */
  readonly token?: string | undefined;
}

/**
 * A search against any service speaking this API, through the SDK's typed client (SSE when offered,
 * polling otherwise). The body is first checked with the contract's own rules, so bad arguments get the
 * same per-flag messages as a local search without a round trip.
 */
export const prepareRemoteSearch = (body: Record<string, unknown>, target: RemoteTarget, options: { now?: Date; fetch?: FetchLike } = {}): PreparedSearch => {
  const parsed = parseSearchRequest(body, { airports, now: options.now ?? new Date() });
  if (parsed.kind === "invalid") return { kind: "invalid", campos: parsed.campos };
  const client = createClient({ baseUrl: target.baseUrl, token: target.token, ...(options.fetch ? { fetch: options.fetch } : {}) });
  return { kind: "ready", answers$: client.search$(body as SearchRequest) };
};

/** A failed remote search as one line a person can act on, or undefined for what is not a search failure. */
export const describeRemoteError = (error: unknown, baseUrl: string): string | undefined => {
  if (!isSourceError(error)) return undefined;
  switch (error._tag) {
    case "AuthError":
      return `${baseUrl} recusou o acesso: ${error.detail.replace(/\.$/, "")}. Confira --token.`;
    case "TransportError":
      return `não foi possível falar com ${baseUrl}: ${error.detail}. O serviço está rodando? (npx -y pnpm@10.34.9 demo)`;
    case "HttpStatusError":
      return error.status === 404
        ? `${baseUrl} não tem esta API (HTTP 404). A URL termina na base da API, ex. http://localhost:8787/api?`
        : `${baseUrl} respondeu HTTP ${error.status}.`;
    case "RateLimited":
    case "SourceTimeout":
    case "MalformedPayload":
    case "BusinessError":
    case "SourceUnavailable":
    case "RequestBudgetExhausted":
      return `${error.message}.`;
    case "PermissionDenied":
      return `${error.detail.replace(/\.$/, "")}.`;
  }
};
