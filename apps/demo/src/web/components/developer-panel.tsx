import type { SearchRequest } from "@voar/http-adapter/fetch";
import type { DemoConfig } from "../../shared/demo-config.js";
import { cliCommand } from "../search/cli-command.js";

interface DeveloperPanelProps {
  readonly config: DemoConfig;
  /** The search on screen, or before the first one the form's: a command that runs as shown. */
  readonly request: SearchRequest;
  /** Whether `request` is the search on screen (else the form's). */
  readonly searched: boolean;
}

/** For developers: the same search with curl over SSE and with the CLI, and the key to try them with. */
export const DeveloperPanel = ({ config, request, searched }: DeveloperPanelProps) => {
  const apiUrl = new URL(config.apiBaseUrl, window.location.origin).href;
  const body = JSON.stringify(request);
  return (
    <section class="card developer" aria-labelledby="dev-titulo">
      <h2 id="dev-titulo" class="card__title">
        Para desenvolvedores
      </h2>
      <p class="muted">
        Esta página usa o cliente tipado <code>@voar/http-adapter</code> sobre a mesma API. Chave de demonstração: <code>{config.apiKey}</code> ·{" "}
        <a href={config.openApiUrl}>OpenAPI</a> · <a href={config.docsUrl}>referência interativa</a>
      </p>
      <h3 class="developer__label">{searched ? "A busca atual" : "A busca do formulário"} com curl (SSE)</h3>
      <pre class="code" data-testid="curl">{`curl -N -X POST ${apiUrl}/ConsultaAereo/Stream \\\n  -H 'Authorization: Bearer ${config.apiKey}' -H 'Content-Type: application/json' \\\n  -d '${body}'`}</pre>
      <h3 class="developer__label">E com a CLI</h3>
      <pre class="code" data-testid="cli">{cliCommand(request, apiUrl, config.apiKey)}</pre>
    </section>
  );
};
