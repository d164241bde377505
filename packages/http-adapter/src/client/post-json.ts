import { transportFailure } from "../transport/transport-failure.js";
import type { ResolvedClientOptions } from "./client-options.js";

/** An answer read whole. */
export interface TextAnswer {
  readonly status: number;
  readonly text: string;
  readonly retryAfter: string | undefined;
  /** The answer's `ETag`, when it has one. */
  readonly etag: string | undefined;
}

/** The headers of a client request. */
export const requestHeaders = (o: ResolvedClientOptions, accept: string): Record<string, string> => ({
  ...o.headers,
  "content-type": "application/json",
  accept,
  ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
});

/** Posts a JSON body under the base URL and reads the whole answer; transport failures become tagged errors. */
export const postJson = async (
  o: ResolvedClientOptions,
  path: string,
  body: unknown,
  accept: string,
  signal: AbortSignal,
  extraHeaders: Readonly<Record<string, string>> = {},
): Promise<TextAnswer> => {
  try {
    const headers = { ...requestHeaders(o, accept), ...extraHeaders };
    const response = await o.fetch(`${o.baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body), signal });
    return {
      status: response.status,
      text: await response.text(),
      retryAfter: response.headers.get("retry-after") ?? undefined,
      etag: response.headers.get("etag") ?? undefined,
    };
  } catch (error) {
    throw transportFailure(error, signal, `POST ${path}`);
  }
};
