/**
 * The errors of the Node server's own refusals, before any route runs (`entries/node-rejections.ts`,
 * `entries/connection-cap.ts`): tagged like every service error and answered through the same table
 * (`error-table.ts`), with a pt-BR sentence for `MensagemErro`.
 */

/**
 * The request's headers passed the server's limit (Node's `maxHeaderSize`): 431 `REQUISICAO_INVALIDA`, answered
 * by the Node entry before any route runs.
 */
export class HeadersTooLarge extends Error {
  readonly _tag = "HeadersTooLarge";
  constructor(readonly limitBytes: number) {
    super(`headers over ${limitBytes} bytes`);
  }
  get mensagem(): string {
    return `Os cabeçalhos da requisição excedem o tamanho máximo permitido de ${this.limitBytes} bytes.`;
  }
}

/**
 * The request did not arrive whole in time (`http.headersTimeoutMs` / `http.requestTimeoutMs`): 408
 * `TEMPO_ESGOTADO`, retryable (RFC 9110: the client may repeat it on a new connection). Node entry only.
 */
export class RequestTimeout extends Error {
  readonly _tag = "RequestTimeout";
  constructor() {
    super("request timeout");
  }
  get mensagem(): string {
    return "A requisição não chegou por inteiro dentro do tempo limite do servidor. Envie-a de novo, numa nova conexão.";
  }
}

/**
 * The client's address already holds `http.maxConnectionsPerAddress` connections: the new one is answered
 * 429 `LIMITE_EXCEDIDO` with `Retry-After` and closed at once. Node entry only.
 */
export class TooManyConnections extends Error {
  readonly _tag = "TooManyConnections";
  readonly retryAfterSeconds = 1;
  constructor(readonly max: number) {
    super(`more than ${max} connections from one address`);
  }
  get mensagem(): string {
    return `Conexões demais abertas a partir do seu endereço (no máximo ${this.max} ao mesmo tempo). Feche conexões ociosas e tente de novo em ${this.retryAfterSeconds} s.`;
  }
}

/**
 * The request asked for an expectation the server does not meet (`Expect` other than `100-continue`): 417
 * `REQUISICAO_INVALIDA`, naming the header (RFC 9110 §10.1.1). Node entry only.
 */
export class ExpectationFailed extends Error {
  readonly _tag = "ExpectationFailed";
  constructor(readonly expectation: string) {
    super(`expectation not supported: ${expectation}`);
  }
  get mensagem(): string {
    return "O servidor não atende ao cabeçalho Expect enviado: só 100-continue é aceito. Envie a requisição sem ele.";
  }
}

/** The Node server's own refusals. */
export type EdgeError = HeadersTooLarge | RequestTimeout | TooManyConnections | ExpectationFailed;

/** The tags of {@link EdgeError}, for `isServiceError`. */
export const EDGE_ERROR_TAGS: readonly EdgeError["_tag"][] = ["HeadersTooLarge", "RequestTimeout", "TooManyConnections", "ExpectationFailed"];
