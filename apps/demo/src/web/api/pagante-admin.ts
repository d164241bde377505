/** The operator's Pagante switch, through the service's admin endpoints (`/admin/pagante`, admin key). */

/** One airline's switch, as `GET /admin/pagante` lists it. */
export interface PaganteEntry {
  readonly IdCia: number;
  readonly Nome: string;
  readonly Iata: string;
  /** On: cash ("pagante") flights of this airline are shown. Off: only flights bought with miles. */
  readonly Pagante: boolean;
}

/** A refused admin call, with the service's own message. */
export class AdminError extends Error {
  readonly _tag = "AdminError";
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = "AdminError";
  }
}

const call = async (apiBaseUrl: string, adminKey: string, init: RequestInit = {}): Promise<readonly PaganteEntry[]> => {
  const response = await fetch(`${apiBaseUrl}/admin/pagante`, {
    ...init,
    headers: { "X-Admin-Key": adminKey, "Content-Type": "application/json", accept: "application/json" },
  });
  const body = (await response.json().catch(() => undefined)) as { Pagante?: PaganteEntry[]; MensagemErro?: string } | undefined;
  if (!response.ok || !body?.Pagante) {
    const message = response.status === 401 ? "Chave de administrador recusada." : (body?.MensagemErro ?? `HTTP ${response.status}`);
    throw new AdminError(response.status, message);
  }
  return body.Pagante;
};

/** Every airline's switch. */
export const listPagante = (apiBaseUrl: string, adminKey: string): Promise<readonly PaganteEntry[]> => call(apiBaseUrl, adminKey);

/** Turns one airline's switch on or off; answers every airline's switch after the change. */
export const setPagante = (apiBaseUrl: string, adminKey: string, airlineId: number, enabled: boolean): Promise<readonly PaganteEntry[]> =>
  call(apiBaseUrl, adminKey, { method: "PUT", body: JSON.stringify({ IdCia: airlineId, Pagante: enabled }) });
