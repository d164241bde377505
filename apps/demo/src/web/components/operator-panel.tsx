import { useState } from "preact/hooks";
import { AdminError, listPagante, setPagante, type PaganteEntry } from "../api/pagante-admin.js";
import { airlineNoteById } from "../format/airline-label.js";

interface OperatorPanelProps {
  readonly apiBaseUrl: string;
  /** The demo's admin key, offered with one click. */
  readonly demoAdminKey: string;
  /** Runs the search on screen again, to see a change take effect. */
  readonly onSearchAgain: (() => void) | undefined;
}

const messageOf = (e: unknown): string => (e instanceof AdminError ? e.message : e instanceof Error ? e.message : String(e));

/**
 * The operator's panel: behind the admin key, the per-airline Pagante switch. Off, an airline's cash
 * flights (`PontosAdulto` -1) disappear from every search started afterwards.
 */
export const OperatorPanel = ({ apiBaseUrl, demoAdminKey, onSearchAgain }: OperatorPanelProps) => {
  const [key, setKey] = useState("");
  const [entries, setEntries] = useState<readonly PaganteEntry[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<readonly PaganteEntry[]>, done?: (list: readonly PaganteEntry[]) => void) => {
    setBusy(true);
    setError(undefined);
    try {
      const list = await action();
      setEntries(list);
      done?.(list);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  const toggle = (entry: PaganteEntry) =>
    run(
      () => setPagante(apiBaseUrl, key, entry.IdCia, !entry.Pagante),
      () => setNotice(`${entry.Nome}: ${entry.Pagante ? "voos pagantes ocultos; só voos com milhas" : "voos pagantes visíveis de novo"}. Vale para as próximas buscas.`),
    );

  return (
    <section class="card operator" aria-labelledby="operador-titulo" id="operador">
      <h2 id="operador-titulo" class="card__title">
        Painel do operador
      </h2>
      <p class="muted">
        Chave <strong>Pagante</strong> por companhia. Desligada, as buscas mostram só os voos comprados com milhas daquela companhia; os voos
        pagos em dinheiro somem.
      </p>
      {entries === undefined ? (
        <form
          class="operator__login"
          onSubmit={(e) => {
            e.preventDefault();
            void run(() => listPagante(apiBaseUrl, key));
          }}
        >
          <div class="field">
            <label for="campo-admin">Chave de administrador</label>
            <input id="campo-admin" type="password" autocomplete="off" value={key} onInput={(e) => setKey(e.currentTarget.value)} />
          </div>
          <div class="operator__actions">
            <button type="submit" class="button button--primary" disabled={busy || key === ""}>
              Entrar
            </button>
            <button type="button" class="link-button" onClick={() => setKey(demoAdminKey)}>
              Usar a chave da demonstração
            </button>
          </div>
        </form>
      ) : (
        <ul class="switches" aria-label="Pagante por companhia">
          {entries.map((e) => (
            <li key={e.IdCia}>
              <label class="switch">
                <input type="checkbox" role="switch" checked={e.Pagante} disabled={busy} onChange={() => void toggle(e)} data-testid={`pagante-${e.Iata}`} />
                <span class="switch__track" aria-hidden="true" />
                <span class="switch__name">
                  {e.Nome}
                  {airlineNoteById(e.IdCia, e.Iata) ? <span class="muted"> ({airlineNoteById(e.IdCia, e.Iata)})</span> : null}
                </span>
                <span class={e.Pagante ? "switch__state" : "switch__state is-off"}>{e.Pagante ? "com pagantes" : "só milhas"}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {error ? (
        <p class="banner banner--error" role="alert">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p class="banner banner--info" role="status">
          {notice}{" "}
          {onSearchAgain ? (
            <button type="button" class="button button--small" onClick={onSearchAgain}>
              Buscar de novo
            </button>
          ) : null}
        </p>
      ) : null}
    </section>
  );
};
