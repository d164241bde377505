import type { SearchRequest } from "@voar/http-adapter/fetch";

const MODES: Readonly<Record<number, string>> = { [-1]: "a", 1300: "b" };

/** The `voar` CLI command of a request. */
export const cliCommand = (r: SearchRequest, apiUrl: string, token: string): string =>
  [
    `pnpm voar search ${r.Origem} ${r.Destino} ${r.Ida}`,
    r.Volta ? `--volta ${r.Volta}` : "",
    r.Companhia !== undefined && r.Companhia !== null && r.Companhia !== -1 ? `--modo ${MODES[r.Companhia] ?? r.Companhia}` : "",
    r.Adultos !== undefined && r.Adultos !== 1 ? `--adultos ${r.Adultos}` : "",
    r.Criancas ? `--criancas ${r.Criancas}` : "",
    r.Bebes ? `--bebes ${r.Bebes}` : "",
    `--base-url ${apiUrl} --token ${token}`,
  ]
    .filter(Boolean)
    .join(" ");
