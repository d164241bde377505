import type { Envelope } from "@voar/http-adapter/fetch";
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
