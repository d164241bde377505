import type { DemoConfig } from "../../shared/demo-config.js";

interface AppHeaderProps {
  readonly config: DemoConfig | undefined;
  readonly operatorOpen: boolean;
  readonly onOperator: () => void;
}

/** The product's name, where the results come from, and the way to the documentation site, the API docs and the operator panel. */
export const AppHeader = ({ config, operatorOpen, onOperator }: AppHeaderProps) => (
  <header class="app-header">
    <div class="app-header__inner">
      <a class="brand" href="/">
        <span class="brand__mark" aria-hidden="true">
          ✈
        </span>
        <span class="brand__name">Voar</span>
        <span class="brand__tag">busca progressiva de voos</span>
      </a>
      <nav class="app-header__nav" aria-label="Links">
        {config ? (
          <span class={config.backend === "simulador" ? "pill pill--sim" : "pill pill--live"} title="De onde vêm os resultados">
            {config.backend === "simulador" ? "Simulador embutido" : "Fornecedor real"}
          </span>
        ) : null}
        <button type="button" class="header-link" aria-expanded={operatorOpen} aria-controls="operador" onClick={onOperator}>
          Operador
        </button>
        {config ? (
          <a class="header-link" href={config.siteDocsUrl} target="_blank" rel="noopener">
            Documentação
          </a>
        ) : null}
        {config ? (
          <a class="header-link" href={config.docsUrl} target="_blank" rel="noopener">
            Docs da API
          </a>
        ) : null}
      </nav>
    </div>
  </header>
);
