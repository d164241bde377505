/** The members of a wire answer the tests look at. */
export interface WireAnswer {
  readonly Success?: boolean;
  readonly Completed?: boolean;
  readonly TotalItens?: number;
  readonly ExErro?: { readonly Extensions?: { readonly LeaseId?: string } } | null;
  readonly Data: readonly {
    readonly ActiveProviders?: readonly string[];
    readonly flights?: readonly unknown[];
    readonly Ida?: readonly { readonly Cia?: unknown; readonly CiaParceira?: { readonly Iata?: string }; readonly PontosAdulto?: number }[];
  }[];
}

/** Views a parsed JSON body as a wire answer (tests only: the assertions check what they read). */
export const asAnswer = (json: unknown): WireAnswer => json as WireAnswer;
