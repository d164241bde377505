/**
 * The pieces the OpenAPI document's paths are written with: references to components, JSON answers, the
 * error answers of a list of codes, the security of the search routes.
 */
import { ERROR_CATALOGUE, type ErrorCode } from "@voar/core";

/** A JSON value of the document. */
export type Json = Record<string, unknown>;

/** A reference to a component schema. */
export const ref = (id: string): Json => ({ $ref: `#/components/schemas/${id}` });

/** A JSON answer of a schema. */
export const json = (schema: Json, description: string): Json => ({ description, content: { "application/json": { schema } } });

/** The error answers of some catalogue codes, one per HTTP status. */
export const errorsOf = (codes: readonly ErrorCode[]): Json => {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) byStatus.set(ERROR_CATALOGUE[code].status, [...(byStatus.get(ERROR_CATALOGUE[code].status) ?? []), code]);
  return Object.fromEntries([...byStatus].map(([status, list]) => [String(status), json(ref("RespostaErro"), `Falha: ${list.join(", ")}.`)]));
};

/** A JSON route's answer to a body of another media type (clients in legacy compat mode are exempt). */
export const UNSUPPORTED_MEDIA_TYPE: Json = {
  "415": json(ref("RespostaErro"), "REQUISICAO_INVALIDA: Content-Type diferente de application/json (clientes legados são aceitos sem ele)."),
};

/** The security of the search routes: an API key or an issued token. */
export const bearer = [{ bearer: [] }, { oauth2: [] }];
