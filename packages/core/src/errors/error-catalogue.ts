import type { SourceProgress } from "../engine/progress.js";

/** The stable error codes of the wire's `Erro.Codigo` (decisions.md). */
export const ERROR_CODES = [
  "REQUISICAO_INVALIDA",
  "NAO_AUTORIZADO",
  "CORPO_GRANDE_DEMAIS",
  "LIMITE_EXCEDIDO",
  "FALHA_FORNECEDOR",
  "TEMPO_ESGOTADO",
  "ERRO_INTERNO",
] as const;

/** A stable error code of the wire. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The HTTP statuses an error answer may carry. */
export type ErrorStatus = 400 | 401 | 413 | 429 | 500 | 502 | 504;

/** How one error code is answered. */
export interface ErrorCatalogueEntry {
  /** HTTP status of the answer. */
  readonly status: ErrorStatus;
  /** `Erro.Retentavel`: whether repeating the same request later may succeed. */
  readonly retentavel: boolean;
  /** Default `MensagemErro`: a clear pt-BR sentence, no internal detail. */
  readonly mensagem: string;
}

/**
 * The typed table from error code to HTTP status, retry hint and default message (tRPC style): a new code
 * does not compile until it has a row. `ERRO_INTERNO` is not retryable: a bug answers the same way again.
 */
export const ERROR_CATALOGUE: { readonly [C in ErrorCode]: ErrorCatalogueEntry } = {
  REQUISICAO_INVALIDA: {
    status: 400,
    retentavel: false,
    mensagem: "A requisição é inválida. Corrija os campos indicados e envie de novo.",
  },
  NAO_AUTORIZADO: {
    status: 401,
    retentavel: false,
    mensagem: "Acesso não autorizado: envie um token de acesso válido no cabeçalho Authorization.",
  },
  CORPO_GRANDE_DEMAIS: {
    status: 413,
    retentavel: false,
    mensagem: "O corpo da requisição excede o tamanho máximo permitido.",
  },
  LIMITE_EXCEDIDO: {
    status: 429,
    retentavel: true,
    mensagem: "Limite de requisições excedido. Aguarde o tempo indicado em Retry-After e tente de novo.",
  },
  FALHA_FORNECEDOR: {
    status: 502,
    retentavel: true,
    mensagem: "Nenhum fornecedor conseguiu responder à busca. Tente de novo em instantes.",
  },
  TEMPO_ESGOTADO: {
    status: 504,
    retentavel: true,
    mensagem: "Os fornecedores não responderam a tempo. Tente de novo em instantes.",
  },
  ERRO_INTERNO: {
    status: 500,
    retentavel: false,
    mensagem: "Ocorreu um erro interno. Nossa equipe foi notificada.",
  },
};

/** True when a value is one of the {@link ErrorCode}s. */
export const isErrorCode = (u: unknown): u is ErrorCode =>
  typeof u === "string" && (ERROR_CODES as readonly string[]).includes(u);

/** Why a source failed, as progress records it. */
type FailureTag = NonNullable<SourceProgress["error"]>["tag"];

/**
 * Which code a search answers when EVERY source failed (a partial failure is a success): a row per failure
 * tag, so a new source error does not compile until it is classified.
 */
export const SOURCE_FAILURE_CODE: { readonly [T in FailureTag]: "FALHA_FORNECEDOR" | "TEMPO_ESGOTADO" } = {
  SourceTimeout: "TEMPO_ESGOTADO",
  DeadlineExceeded: "TEMPO_ESGOTADO",
  TransportError: "FALHA_FORNECEDOR",
  HttpStatusError: "FALHA_FORNECEDOR",
  RateLimited: "FALHA_FORNECEDOR",
  MalformedPayload: "FALHA_FORNECEDOR",
  BusinessError: "FALHA_FORNECEDOR",
  AuthError: "FALHA_FORNECEDOR",
};

/**
 * The code of a search in which every source failed: `TEMPO_ESGOTADO` when all of them ran out of time,
 * otherwise `FALHA_FORNECEDOR`.
 */
export const failedSearchCode = (sources: readonly SourceProgress[]): "FALHA_FORNECEDOR" | "TEMPO_ESGOTADO" =>
  sources.length > 0 && sources.every((s) => s.error !== undefined && SOURCE_FAILURE_CODE[s.error.tag] === "TEMPO_ESGOTADO")
    ? "TEMPO_ESGOTADO"
    : "FALHA_FORNECEDOR";
