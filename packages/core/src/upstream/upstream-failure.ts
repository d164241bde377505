import { BusinessError, PermissionDenied } from "../errors/source-errors.js";
import type { UpstreamAnswer } from "./upstream-answer.js";

/** Said when an upstream refuses a search without a message of its own. */
const NO_MESSAGE = "o fornecedor recusou a consulta sem informar o motivo";

/**
 * What upstreams say when the agency may not make a search, in Portuguese and English, matched on the
 * message folded to lower case without accents: "Erro ao validar permissões da agência", "Usuário não
 * possui permissão", "Acesso negado", "not allowed", "Forbidden", "Unauthorized", "access denied"...
 */
const PERMISSION_PATTERNS: readonly RegExp[] = [
  /\bpermiss(?:ao|oes|ion|ions)\b/,
  /\bnao (?:esta |e )?(?:autorizad[oa]s?|habilitad[oa]s?|permitid[oa]s?)\b/,
  /\bsem (?:acesso|autorizacao)\b/,
  /\b(?:nao (?:possui|tem)) (?:acesso|autorizacao)\b/,
  /\bacesso (?:negado|nao autorizado|restrito|bloqueado)\b/,
  /\bnot (?:allowed|authori[sz]ed|permitted)\b/,
  /\b(?:access|permission) denied\b/,
  /\bforbidden\b/,
  /\bunauthori[sz]ed\b/,
];

/** A message folded for matching: lower case, accents removed, whitespace collapsed. */
const fold = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ");

/**
 * True when an upstream's message says the agency lacks permission for the search (see the patterns
 * above); false for any other failure, e.g. "Erro interno" or "Origem inválida".
 *
 * @example
 * isPermissionMessage("Erro ao validar permissões da agência"); // true
 */
export const isPermissionMessage = (message: string | undefined): boolean => {
  if (message === undefined) return false;
  const folded = fold(message);
  return PERMISSION_PATTERNS.some((p) => p.test(folded));
};

/**
 * The error of an answer that says `Success: false` (real upstreams do so with HTTP 200): a
 * {@link PermissionDenied} when its message is about permission (not retryable, its own code), else a
 * {@link BusinessError}; each carries the clean upstream message as detail, for logs. Undefined for a
 * successful answer.
 *
 * @example
 * const failure = upstreamFailure(answer); // PermissionDenied for "Erro ao validar permissoes da agência"
 */
export const upstreamFailure = (answer: Pick<UpstreamAnswer, "success" | "errorMessage">): BusinessError | PermissionDenied | undefined => {
  if (answer.success) return undefined;
  const detail = answer.errorMessage ?? NO_MESSAGE;
  return isPermissionMessage(answer.errorMessage) ? new PermissionDenied({ detail }) : new BusinessError({ detail });
};
