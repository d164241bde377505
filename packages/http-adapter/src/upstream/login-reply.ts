/** Reading the upstream's answer to a login (`POST {base}/Token`, OAuth2 password grant). */

/** The token and its life from a 200 answer; undefined when it holds none. */
export const readToken = (status: number, text: string): { token: string; lifeMs: number } | undefined => {
  if (status !== 200) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined; // not JSON: the caller reports a malformed login answer
  }
  if (typeof json !== "object" || json === null) return undefined;
  const { access_token: token, expires_in: expires } = json as { access_token?: unknown; expires_in?: unknown };
  if (typeof token !== "string" || token === "") return undefined;
  return { token, lifeMs: typeof expires === "number" && expires > 0 ? expires * 1000 : 3_600_000 };
};

/**
 * Why a login was refused (a 4xx), for logs and readiness: the status and the OAuth2 error code when the answer
 * has one (`invalid_grant`, `invalid_client`...), never the upstream's own description, which may echo what
 * was sent.
 *
 * @example
 * refusalDetail(400, '{"error":"invalid_grant","error_description":"..."}'); // "login recusado pelo fornecedor (HTTP 400, invalid_grant): credenciais ou configuração"
 */
export const refusalDetail = (status: number, text: string): string => {
  let code: string | undefined;
  try {
    const json: unknown = JSON.parse(text);
    const error = typeof json === "object" && json !== null ? (json as { error?: unknown }).error : undefined;
    if (typeof error === "string" && /^[a-z_]{1,40}$/.test(error)) code = error;
  } catch {
    code = undefined; // not JSON: the status says it
  }
  return `login recusado pelo fornecedor (HTTP ${status}${code ? `, ${code}` : ""}): credenciais ou configuração`;
};
