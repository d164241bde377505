/**
 * The error catalogue page, from the code's tables: core's `ERROR_CATALOGUE` (code → status, retry, message)
 * and `SOURCE_FAILURE` (source error → code and sentence), and the service's `ERROR_TABLE` (service error →
 * status and code), each service error described by its class's own doc comment.
 */
import path from "node:path";
import { ERROR_CATALOGUE, ERROR_CODES, SOURCE_FAILURE } from "@voar/core";
import { ERROR_TABLE } from "@voar/hono-edge";
import { classDocs, exportedConstDoc } from "./doc-comments.js";
import { REPO_DIR } from "./paths.js";

/** Table cell text: pipes escaped, and angle brackets outside code spans (Vue would read them as tags). */
const cell = (text: string) =>
  text
    .replace(/\n/g, " ")
    .split("`")
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, "&lt;").replace(/>/g, "&gt;")))
    .join("`")
    .replace(/\|/g, "\\|");

export const errorCataloguePage = async (): Promise<string> => {
  const serviceDocs = await classDocs(path.join(REPO_DIR, "packages/hono-edge/src/errors/service-errors.ts"));
  const sourceDocs = await classDocs(path.join(REPO_DIR, "packages/core/src/errors/source-errors.ts"));
  const catalogueFile = path.join(REPO_DIR, "packages/core/src/errors/error-catalogue.ts");
  const catalogueDoc = await exportedConstDoc(catalogueFile, "ERROR_CATALOGUE");
  const failedSearchDoc = await exportedConstDoc(catalogueFile, "failedSearchCode");
  const lines = [
    "---",
    "title: Error catalogue",
    "aside: false",
    "---",
    "",
    "# Error catalogue",
    "",
    "::: info Generated",
    "This page is generated at build time from the code's tables: `ERROR_CATALOGUE` and `SOURCE_FAILURE` of",
    "`@voar/core` (`packages/core/src/errors/error-catalogue.ts`) and `ERROR_TABLE` of `@voar/hono-edge`",
    "(`packages/hono-edge/src/errors/error-table.ts`). A new code or error does not compile until it has a row there.",
    ":::",
    "",
    "Every failure answer is the same envelope: `Success: false`, `Erro.Codigo` (one of the codes below, stable),",
    "`Erro.Retentavel`, `MensagemErro` and, for a request to fix, `Erro.Campos` naming each field. See",
    "[Endpoints](../../service/endpoints.md#errors) for an example.",
    "",
    "## Codes (`Erro.Codigo`)",
    "",
    cell(catalogueDoc),
    "",
    "| Codigo | HTTP | Retentavel | default MensagemErro |",
    "|---|---|---|---|",
    ...ERROR_CODES.map((code) => {
      const e = ERROR_CATALOGUE[code];
      return `| \`${code}\` | ${e.status} | ${e.retentavel ? "yes" : "no"} | ${cell(e.mensagem)} |`;
    }),
    "",
    "## Errors of the service",
    "",
    "What the HTTP service answers when it refuses a request, through `ERROR_TABLE` (the status differs from the",
    "catalogue's only where the row says so).",
    "",
    "| error | HTTP | Codigo | when |",
    "|---|---|---|---|",
    ...Object.entries(ERROR_TABLE).map(([tag, row]) => `| \`${tag}\` | ${row.status} | \`${row.codigo}\` | ${cell(serviceDocs.get(tag) ?? "")} |`),
    "",
    "## Failures of a source",
    "",
    "A source that fails does not fail the search: it shows in `Progresso.Fontes[]` with `Estado: \"falhou\"`, the",
    "`Codigo` and the fixed pt-BR sentence below in `Erro` (never the upstream's own text: that goes to the",
    "service's log). Only when every source failed and nothing was found is the search itself an error, with the code",
    `of a search in which every source failed: ${cell(failedSearchDoc.replace(/^The code of a search in which every source failed: /, ""))}`,
    "",
    "| source error | Codigo | Erro (pt-BR) | what it is |",
    "|---|---|---|---|",
    ...Object.entries(SOURCE_FAILURE).map(
      ([tag, row]) => `| \`${tag}\` | \`${row.codigo}\` | ${cell(row.mensagem)} | ${cell(sourceDocs.get(tag) ?? (tag === "DeadlineExceeded" ? "The search's deadline passed while the source had not finished (set by the engine, not thrown by a source)." : ""))} |`,
    ),
    "",
  ];
  return lines.join("\n");
};
