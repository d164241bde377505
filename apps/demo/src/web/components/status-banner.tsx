import { airlineById } from "@voar/core";
import type { Envelope } from "@voar/http-adapter/fetch";
import type { DemoBackend } from "../../shared/demo-config.js";
import { failedSources } from "../search/progress.js";

/** A search that could not run at all: a clear banner, read out at once. */
export const ErrorBanner = ({ message }: { readonly message: string }) => (
  <div class="banner banner--error" role="alert">
    <strong>A busca não pôde ser concluída.</strong> {message}
  </div>
);

/**
 * Some sources failed while others answered: the results are real but partial, and the person should know
 * which airlines or agencies are missing and why.
 */
export const PartialFailureBanner = ({ envelope }: { readonly envelope: Envelope | undefined }) => {
  const failed = failedSources(envelope);
  if (failed.length === 0) return null;
  const names = failed.map((f) => f.Nome).join(", ");
  return (
    <div class="banner banner--warning" role="status" data-testid="falha-parcial">
      <strong>
        {failed.length === 1 ? `${names} não respondeu.` : `${names} não responderam.`}
      </strong>{" "}
      Os resultados abaixo vêm das demais fontes.
      <ul class="banner__details">
        {failed.map((f) => (
          <li key={f.Nome}>
            {f.Nome}: {f.Erro ?? "erro sem detalhe"}
          </li>
        ))}
      </ul>
    </div>
  );
};

interface NoSourceBannerProps {
  readonly envelope: Envelope | undefined;
  readonly companhia: number;
  readonly backend?: DemoBackend | undefined;
}

/**
 * A search the service finished without asking anyone: no source of this deployment serves the Companhia
 * asked for (the simulator has no Interline; a real account serves the airlines it lists). Said plainly, so
 * "0 fontes" and an empty list do not read as "no flights that day".
 */
export const NoSourceBanner = ({ envelope, companhia, backend }: NoSourceBannerProps) => {
  if (!envelope?.Completed || !envelope.Success || (envelope.Progresso?.FontesTotal ?? 1) > 0) return null;
  const name = airlineById(companhia)?.name ?? `a Companhia ${companhia}`;
  return (
    <div class="banner banner--info" role="status" data-testid="sem-fonte">
      <strong>Nenhuma fonte desta demonstração atende {name}.</strong>{" "}
      {backend === "fornecedor"
        ? "A conta do fornecedor configurada não inclui essa companhia (veja VOAR_UPSTREAM_AIRLINES), então a busca não perguntou a ninguém."
        : "O simulador embutido não tem essa fonte, então a busca não perguntou a ninguém. Com um fornecedor real que a atenda (VOAR_UPSTREAM_URL), ela aparece aqui."}{" "}
      Escolha outra companhia ou <em>Todas as companhias</em>.
    </div>
  );
};
