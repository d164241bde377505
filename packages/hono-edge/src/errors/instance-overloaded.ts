/**
 * This instance is overloaded (its event loop lags, see `limits/admission.ts`) and refuses new searches for a
 * moment, so the running ones keep the time they need: 429 `LIMITE_EXCEDIDO`, retryable after
 * `retryAfterSeconds` (on this instance or another). A refusal the service chose, not a failure.
 */
export class InstanceOverloaded extends Error {
  readonly _tag = "InstanceOverloaded";
  constructor(readonly retryAfterSeconds: number) {
    super(`instance overloaded: new searches refused for ${retryAfterSeconds} s`);
  }
  get mensagem(): string {
    return `O serviço está sobrecarregado neste momento e não inicia novas buscas. Tente de novo em ${this.retryAfterSeconds} s (cabeçalho Retry-After).`;
  }
}
