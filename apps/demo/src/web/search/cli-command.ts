import type { SearchRequest } from "@voar/http-adapter/fetch";
import { VOAR_CLI } from "../../shared/cli-invocation.js";

const MODES: Readonly<Record<number, string>> = { [-1]: "a", 1300: "b" };

interface WireWindow {
  readonly Saida?: { readonly De: string; readonly Ate: string } | undefined;
}

const windowFlag = (flag: string, w: WireWindow | undefined): string => (w?.Saida ? `${flag} ${w.Saida.De}-${w.Saida.Ate}` : "");

/** The CLI flags of a request's `Filtros` and `Ordenacao` (the view of a Mode A result). */
const viewFlags = (r: SearchRequest): string[] => {
  const f = (r["Filtros"] ?? {}) as {
    Paradas?: number[];
    ParadasIda?: number[];
    ParadasVolta?: number[];
    Companhias?: string[];
    Pagamento?: string;
    Ida?: WireWindow;
    Volta?: WireWindow;
  };
  const sort = r["Ordenacao"];
  return [
    typeof sort === "string" && sort !== "preco" ? `--ordenar ${sort}` : "",
    f.Paradas ? `--paradas ${f.Paradas.join(",")}` : "",
    f.ParadasIda ? `--paradas-ida ${f.ParadasIda.join(",")}` : "",
    f.ParadasVolta ? `--paradas-volta ${f.ParadasVolta.join(",")}` : "",
    f.Companhias ? `--companhias ${f.Companhias.join(",")}` : "",
    f.Pagamento ? `--pagamento ${f.Pagamento}` : "",
    windowFlag("--saida-ida", f.Ida),
    windowFlag("--saida-volta", f.Volta),
  ];
};

/**
 * The `voar` CLI command of a request, runnable from the repository's root with only Node.js and npm: the
 * same search, view and page (`--pagina`, `--por-pagina` when not the CLI's defaults, 1 and 10).
 */
export const cliCommand = (r: SearchRequest, apiUrl: string, token: string): string =>
  [
    `${VOAR_CLI} search ${r.Origem} ${r.Destino} ${r.Ida}`,
    r.Volta ? `--volta ${r.Volta}` : "",
    r.Companhia !== undefined && r.Companhia !== null && r.Companhia !== -1 ? `--modo ${MODES[r.Companhia] ?? r.Companhia}` : "",
    r.Adultos !== undefined && r.Adultos !== 1 ? `--adultos ${r.Adultos}` : "",
    r.Criancas ? `--criancas ${r.Criancas}` : "",
    r.Bebes ? `--bebes ${r.Bebes}` : "",
    r.NumeroPagina !== undefined && r.NumeroPagina !== 1 ? `--pagina ${r.NumeroPagina}` : "",
    r.QuantidadePorPagina !== undefined && r.QuantidadePorPagina !== 10 ? `--por-pagina ${r.QuantidadePorPagina}` : "",
    ...viewFlags(r),
    `--base-url ${apiUrl} --token ${token}`,
  ]
    .filter(Boolean)
    .join(" ");
