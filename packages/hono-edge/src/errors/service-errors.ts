import type { FieldError } from "@voar/core";
import { ALERT_ERROR_TAGS, type AlertError } from "./alert-errors.js";
import { EDGE_ERROR_TAGS, type EdgeError } from "./edge-errors.js";
import type { InstanceOverloaded } from "./instance-overloaded.js";

/**
 * The errors of the HTTP service, as tagged classes (`_tag`), each carrying what its answer needs (fields, a retry
 * delay, a pt-BR `MensagemErro`), mapped to the wire once through `error-table.ts`. No message here ever holds a
 * token, a password or a stack. `InstanceOverloaded` has a file of its own.
 */

/** The body does not make a valid request: the failing fields, named as the spec writes them. */
export class InvalidRequest extends Error {
  readonly _tag = "InvalidRequest";
  constructor(
    readonly campos: readonly FieldError[],
    readonly mensagem?: string,
  ) {
    super("invalid request");
  }
}

/**
 * A poll named a search (or a price calendar) that does not exist (never did, expired, was lost with the
 * store's data, or belongs to another tenant): 404 `BUSCA_EXPIRADA`, naming the field, telling the client to
 * send the query again.
 */
export class UnknownSearch extends Error {
  readonly _tag = "UnknownSearch";
  /** `field`: the member the client sent the id in; `kind`: what the id was to name (a search, or a calendar). */
  constructor(readonly field: "Token" | "LeaseId", readonly kind: "search" | "calendar" = "search") {
    super(`unknown ${kind}`);
  }
  get campos(): readonly FieldError[] {
    const what = this.kind === "calendar" ? "um calendário em andamento ou guardado (ele expirou ou foi perdido)" : "uma busca em andamento ou guardada (ela expirou ou foi perdida)";
    const next = this.kind === "calendar" ? "um novo calendário" : "uma nova busca";
    return [{ Campo: this.field, Mensagem: `${this.field} não corresponde a ${what}: envie a consulta completa para iniciar ${next}.` }];
  }
}

/** Why a request was not authenticated; only the kind, never the credential. */
export type UnauthorizedReason = "missing" | "malformed" | "unknown" | "expired" | "bad-credentials";

const UNAUTHORIZED_MESSAGES: { readonly [R in UnauthorizedReason]: string } = {
  missing: "Acesso não autorizado: envie o cabeçalho Authorization: Bearer <token>.",
  malformed: "Acesso não autorizado: o cabeçalho Authorization deve ser Bearer <token>.",
  unknown: "Acesso não autorizado: o token de acesso não é válido.",
  expired: "Acesso não autorizado: o token de acesso expirou. Peça um novo em /Token.",
  "bad-credentials": "Acesso não autorizado: usuário ou senha incorretos.",
};

/** The request carries no valid credential. */
export class Unauthorized extends Error {
  readonly _tag = "Unauthorized";
  constructor(readonly reason: UnauthorizedReason) {
    super(`unauthorized: ${reason}`);
  }
  get mensagem(): string {
    return UNAUTHORIZED_MESSAGES[this.reason];
  }
}

/** The body is larger than the configured limit. */
export class PayloadTooLarge extends Error {
  readonly _tag = "PayloadTooLarge";
  constructor(readonly limitBytes: number) {
    super(`body over ${limitBytes} bytes`);
  }
  get mensagem(): string {
    return `O corpo da requisição excede o tamanho máximo permitido de ${this.limitBytes} bytes.`;
  }
}

/** The tenant spent its request budget; it may try again after `retryAfterSeconds`. */
export class RateLimitExceeded extends Error {
  readonly _tag = "RateLimitExceeded";
  constructor(readonly retryAfterSeconds: number) {
    super(`rate limited for ${retryAfterSeconds} s`);
  }
  get mensagem(): string {
    return `Limite de requisições excedido. Tente de novo em ${this.retryAfterSeconds} s (cabeçalho Retry-After).`;
  }
}

/**
 * No room for a new search: the tenant keeps as many searches as `limits.maxSessionsPerTenant` allows, or the
 * service as many as `limits.maxSessions`, and all of them are running (a running search is never dropped
 * to make room). Retryable after `retryAfterSeconds`, when the soonest of them reaches its deadline.
 */
export class SearchCapacityReached extends Error {
  readonly _tag = "SearchCapacityReached";
  constructor(
    readonly scope: "tenant" | "instance",
    readonly retryAfterSeconds: number,
  ) {
    super(`no room for a new search (${scope}) for ${retryAfterSeconds} s`);
  }
  get mensagem(): string {
    return this.scope === "tenant"
      ? `Limite de buscas simultâneas da sua conta atingido. Tente de novo em ${this.retryAfterSeconds} s (cabeçalho Retry-After).`
      : `O serviço está no limite de buscas simultâneas. Tente de novo em ${this.retryAfterSeconds} s (cabeçalho Retry-After).`;
  }
}

/** No route answers this method and path. */
export class RouteNotFound extends Error {
  readonly _tag = "RouteNotFound";
  constructor(
    readonly method: string,
    readonly path: string,
  ) {
    super(`no route for ${method} ${path}`);
  }
  get mensagem(): string {
    return `Rota não encontrada: ${this.method} ${this.path}. Consulte a documentação da API.`;
  }
}

/** The session store (Redis) is unreachable or its breaker open: 503 `INDISPONIVEL`, retryable, `Retry-After`. */
export class StoreUnavailable extends Error {
  readonly _tag = "StoreUnavailable";
  constructor(readonly detail: string, readonly retryAfterSeconds = 1) {
    super(`session store unavailable: ${detail}`);
  }
}

/** True for a {@link StoreUnavailable} (by its tag, so it survives module duplication). */
export const isStoreUnavailable = (u: unknown): u is StoreUnavailable => u instanceof Error && "_tag" in u && u._tag === "StoreUnavailable";
/** The path is known but not with this method; `allowed` are the methods it answers (the `Allow` header). */
export class MethodNotAllowed extends Error {
  readonly _tag = "MethodNotAllowed";
  constructor(
    readonly method: string,
    readonly allowed: readonly string[],
  ) {
    super(`method ${method} not allowed`);
  }
  get mensagem(): string {
    return `Método ${this.method} não permitido nesta rota: use ${this.allowed.join(" ou ")}.`;
  }
}

/** A JSON route got a body declared as something else (`Content-Type`). */
export class UnsupportedMediaType extends Error {
  readonly _tag = "UnsupportedMediaType";
  constructor() {
    super("unsupported media type");
  }
  get campos(): readonly FieldError[] {
    return [{ Campo: "Content-Type", Mensagem: "O corpo deve ser JSON: envie Content-Type: application/json." }];
  }
}

/** A bug: something threw that no rule expected. Its detail goes to the log, never to the client. */
export class InternalError extends Error {
  readonly _tag = "InternalError";
  constructor(override readonly cause: unknown) {
    super("internal error");
  }
}

/** Every error the service answers with. */
export type ServiceError =
  | InvalidRequest
  | UnknownSearch
  | Unauthorized
  | PayloadTooLarge
  | RateLimitExceeded
  | SearchCapacityReached
  | InstanceOverloaded
  | RouteNotFound
  | StoreUnavailable
  | MethodNotAllowed
  | UnsupportedMediaType
  | EdgeError
  | AlertError
  | InternalError;

/** The tag of a {@link ServiceError}. */
export type ServiceErrorTag = ServiceError["_tag"];

const TAGS: ReadonlySet<string> = new Set<Exclude<ServiceErrorTag, EdgeError["_tag"] | AlertError["_tag"]>>([
  "InvalidRequest",
  "UnknownSearch",
  "Unauthorized",
  "PayloadTooLarge",
  "RateLimitExceeded",
  "SearchCapacityReached",
  "InstanceOverloaded",
  "RouteNotFound",
  "StoreUnavailable",
  "MethodNotAllowed",
  "UnsupportedMediaType",
  "InternalError",
]);

/** True when a value is one of the tagged {@link ServiceError}s (read from the tag, never the message). */
export const isServiceError = (u: unknown): u is ServiceError =>
  u instanceof Error && "_tag" in u && typeof u._tag === "string" && (TAGS.has(u._tag) || (EDGE_ERROR_TAGS as readonly string[]).includes(u._tag) || (ALERT_ERROR_TAGS as readonly string[]).includes(u._tag));
