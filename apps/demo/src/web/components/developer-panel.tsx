import type { SearchRequest } from "@voar/http-adapter/fetch";
import type { DemoConfig } from "../../shared/demo-config.js";
import { VOAR_CLI } from "../../shared/cli-invocation.js";
import { cliCommand } from "../search/cli-command.js";

/** For developers: the same search with curl over SSE and with the CLI, and the key to try them with. */
export const DeveloperPanel = ({ config, request }: { readonly config: DemoConfig; readonly request: SearchRequest | undefined }) => {
  const apiUrl = new URL(config.apiBaseUrl, window.location.origin).href;
  const body = request ? JSON.stringify(request) : '{"Origem":"CNF","Destino":"SDU","Ida":"AAAA-MM-DD"}';
  return (
    <section class="card developer" aria-labelledby="dev-titulo">
      <h2 id="dev-titulo" class="card__title">
        Para desenvolvedores
      </h2>
      <p class="muted">
        Esta página usa o cliente tipado <code>@voar/http-adapter</code> sobre a mesma API. Chave de demonstração: <code>{config.apiKey}</code> ·{" "}
        <a href={config.openApiUrl}>OpenAPI</a> · <a href={config.docsUrl}>referência interativa</a>
      </p>
      <h3 class="developer__label">A busca atual com curl (SSE)</h3>
      <pre class="code">{`curl -N -X POST ${apiUrl}/ConsultaAereo/Stream \\\n  -H 'Authorization: Bearer ${config.apiKey}' -H 'Content-Type: application/json' \\\n  -d '${body}'`}</pre>
      <h3 class="developer__label">E com a CLI</h3>
      <pre class="code">{request ? cliCommand(request, apiUrl, config.apiKey) : `${VOAR_CLI} search CNF SDU AAAA-MM-DD --base-url ${apiUrl} --token ${config.apiKey}`}</pre>
    </section>
  );
};
