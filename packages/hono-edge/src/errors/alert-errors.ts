import type { FieldError } from "@voar/core";

/**
 * The errors of the price watches' routes (`/Alertas`), tagged like every service error and answered through the
 * same table (`error-table.ts`).
 */

/** No watch of the caller's tenant has this id (never was, removed, expired, or another tenant's): 404. */
export class UnknownAlert extends Error {
  readonly _tag = "UnknownAlert";
  constructor(readonly id: string) {
    super("unknown alert");
  }
  get campos(): readonly FieldError[] {
    return [{ Campo: "id", Mensagem: "Nenhum alerta desta conta tem este id (ele expirou, foi apagado ou nunca existiu)." }];
  }
}

/** The tenant holds as many watches as its quota allows: 429, not retryable (a watch must go first). */
export class AlertQuotaReached extends Error {
  readonly _tag = "AlertQuotaReached";
  constructor(readonly limit: number) {
    super(`alert quota reached (${limit})`);
  }
  get mensagem(): string {
    return `Sua conta já tem ${this.limit} alertas ativos, o limite dela: apague alertas que não usa (DELETE /Alertas/{id}) antes de criar outro.`;
  }
}

/** Every alert error. */
export type AlertError = UnknownAlert | AlertQuotaReached;

/** The tags of {@link AlertError}. */
export const ALERT_ERROR_TAGS = ["UnknownAlert", "AlertQuotaReached"] as const satisfies readonly AlertError["_tag"][];
