import type { SourceProgress } from "./source-progress.js";

/** The stable error codes of the wire's `Erro.Codigo` (decisions.md). */
export const ERROR_CODES = [
  "REQUISICAO_INVALIDA",
  "NAO_AUTORIZADO",
  "CORPO_GRANDE_DEMAIS",
  "LIMITE_EXCEDIDO",
  "FALHA_FORNECEDOR",
  "TEMPO_ESGOTADO",
  "SEM_PERMISSAO",
  "BUSCA_EXPIRADA",
  "INDISPONIVEL",
  "ERRO_INTERNO",
] as const;

/** A stable error code of the wire. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The HTTP statuses an error answer may carry. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 413 | 429 | 500 | 502 | 503 | 504;

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
 * `BUSCA_EXPIRADA` (a poll of a search the service no longer has) is not retryable either: repeating the
 * poll cannot bring the search back, the client must send the query again. `INDISPONIVEL` (the service's
 * own store is unreachable) is: the same request succeeds once the store is back.
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
  SEM_PERMISSAO: {
    status: 403,
    retentavel: false,
    mensagem:
      "O fornecedor recusou a busca: a agência não tem permissão para esta consulta. Repetir não adianta; verifique o acesso da agência junto ao fornecedor.",
  },
  BUSCA_EXPIRADA: {
    status: 404,
    retentavel: false,
    mensagem: "Esta busca não existe mais (expirou ou foi perdida). Envie a consulta completa para iniciar uma nova busca.",
  },
  INDISPONIVEL: {
    status: 503,
    retentavel: true,
    mensagem: "O serviço está temporariamente indisponível. Aguarde o tempo indicado em Retry-After e tente de novo.",
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

/** The codes a search (or one of its sources) fails with. */
export type SourceFailureCode = "FALHA_FORNECEDOR" | "TEMPO_ESGOTADO" | "SEM_PERMISSAO";

/**
 * How one source failure is told to clients (`Progresso.Fontes[].Codigo` and `.Erro`): the code of the
 * catalogue and a fixed pt-BR sentence, the same for every failure of the tag. Never the upstream's text,
 * a status line, a network error code or a URL: that detail goes to the service's log only. A row per
 * failure tag, so a new source error does not compile until it is classified.
 */
export const SOURCE_FAILURE: { readonly [T in FailureTag]: { readonly codigo: SourceFailureCode; readonly mensagem: string } } = {
  SourceTimeout: { codigo: "TEMPO_ESGOTADO", mensagem: "O fornecedor não respondeu a tempo." },
  DeadlineExceeded: { codigo: "TEMPO_ESGOTADO", mensagem: "O fornecedor não respondeu antes do prazo da busca." },
  TransportError: { codigo: "FALHA_FORNECEDOR", mensagem: "Falha de comunicação com o fornecedor." },
  HttpStatusError: { codigo: "FALHA_FORNECEDOR", mensagem: "O fornecedor respondeu com um erro." },
  RateLimited: { codigo: "FALHA_FORNECEDOR", mensagem: "O fornecedor limitou as requisições; tente de novo em instantes." },
  MalformedPayload: { codigo: "FALHA_FORNECEDOR", mensagem: "O fornecedor enviou uma resposta que não pôde ser lida." },
  BusinessError: { codigo: "FALHA_FORNECEDOR", mensagem: "O fornecedor recusou a consulta." },
  AuthError: { codigo: "FALHA_FORNECEDOR", mensagem: "O fornecedor recusou as credenciais do serviço." },
  PermissionDenied: { codigo: "SEM_PERMISSAO", mensagem: "A agência não tem permissão para consultar este fornecedor." },
  SourceUnavailable: {
    codigo: "FALHA_FORNECEDOR",
    mensagem: "O fornecedor está temporariamente indisponível (falhou seguidamente) e fica sem ser consultado por alguns instantes; tente de novo em instantes.",
  },
  RequestBudgetExhausted: {
    codigo: "FALHA_FORNECEDOR",
    mensagem: "A busca atingiu o limite de requisições ao fornecedor; esta fonte parou antes de terminar. Tente de novo em instantes.",
  },
};

/**
 * The code of a search in which every source failed: `TEMPO_ESGOTADO` when all of them ran out of time,
 * `SEM_PERMISSAO` when all of them were refused for lack of permission (not retryable), otherwise
 * `FALHA_FORNECEDOR` (a mix: some part of it may succeed on a retry).
 */
export const failedSearchCode = (sources: readonly SourceProgress[]): SourceFailureCode => {
  const codes = new Set<SourceFailureCode>(sources.map((s) => (s.error === undefined ? "FALHA_FORNECEDOR" : SOURCE_FAILURE[s.error.tag].codigo)));
  return codes.size === 1 && (codes.has("TEMPO_ESGOTADO") || codes.has("SEM_PERMISSAO")) ? [...codes][0]! : "FALHA_FORNECEDOR";
};

/** How a search in which every source failed is answered: its code, whether to retry, and the sentence. */
export interface FailedSearchAnswer {
  readonly codigo: SourceFailureCode;
  /** `Erro.Retentavel`: true when at least one failed source's failure is retryable. */
  readonly retentavel: boolean;
  /** `MensagemErro`: the catalogue's sentence, or one that does not invite a retry when none would help. */
  readonly mensagem: string;
}

/** The sentence of a `FALHA_FORNECEDOR` search whose sources all failed for reasons a retry does not change. */
export const NOT_RETRYABLE_FAILURE_MESSAGE =
  "Nenhum fornecedor conseguiu responder à busca: recusaram a consulta ou enviaram respostas que não puderam ser lidas. " +
  "Repetir a mesma consulta agora não deve mudar o resultado; veja o motivo de cada fonte em Progresso.Fontes.";

/**
 * The answer of a search in which every source failed. Its retry hint follows its sources, as
 * `Progresso.Fontes[].Retentavel` shows them: retryable when at least one failed source's failure is (a timeout,
 * a 5xx, the network, a 429), not when every one is not (an unreadable answer, a business refusal, a refused
 * credential, a permission refusal); the sentence says the same.
 */
export const failedSearchAnswer = (sources: readonly SourceProgress[]): FailedSearchAnswer => {
  const codigo = failedSearchCode(sources);
  const retentavel = sources.some((s) => s.state === "failed" && s.error?.retryable !== false);
  const entry = ERROR_CATALOGUE[codigo];
  return {
    codigo,
    retentavel,
    mensagem: retentavel || !entry.retentavel ? entry.mensagem : NOT_RETRYABLE_FAILURE_MESSAGE,
  };
};
