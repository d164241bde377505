import * as z from "zod";
import type { SourceProgress, SourceState } from "../errors/source-progress.js";
import { SOURCE_FAILURE } from "../errors/error-catalogue.js";
import { CountSchema } from "./scalars.js";

/** Where one source stands, as the wire writes it. */
export const WireSourceStateSchema = z.enum(["pendente", "concluida", "falhou"]);

/** Progress of one source in `Progresso.Fontes[]`. */
export const WireSourceProgressSchema = z
  .strictObject({
    Nome: z.string(),
    Estado: WireSourceStateSchema,
    Itens: CountSchema.meta({ description: "Ofertas recebidas desta fonte até agora." }),
    Erro: z.string().optional().meta({ description: "Por que a fonte falhou (frase em pt-BR do catálogo, nunca o texto do fornecedor); só quando Estado é falhou." }),
    Codigo: z
      .enum(["FALHA_FORNECEDOR", "TEMPO_ESGOTADO", "SEM_PERMISSAO"])
      .optional()
      .meta({ description: "Código do catálogo da falha desta fonte; só quando Estado é falhou." }),
    Retentavel: z.boolean().optional().meta({ description: "Se repetir a busca pode fazer esta fonte responder; só quando Estado é falhou." }),
  })
  .meta({ id: "FonteProgresso" });

/** `Progresso`: an extra envelope member telling how far a progressive search has come (decisions.md). */
export const ProgressoSchema = z
  .strictObject({
    Versao: CountSchema.meta({ description: "Cresce a cada mudança do resultado." }),
    FontesTotal: CountSchema,
    FontesConcluidas: CountSchema.meta({ description: "Fontes que terminaram, com sucesso ou falha." }),
    Fontes: z.array(WireSourceProgressSchema),
    ProximaConsultaMs: CountSchema.meta({ description: "Sugestão de espera, em ms, antes de repetir a consulta." }),
  })
  .meta({ id: "Progresso", description: "Andamento da busca progressiva." });

/** `Progresso` as written. */
export type WireProgress = z.infer<typeof ProgressoSchema>;

const ESTADO: { readonly [S in SourceState]: z.infer<typeof WireSourceStateSchema> } = {
  pending: "pendente",
  done: "concluida",
  failed: "falhou",
};

/**
 * Writes the progress of a search as `Progresso`. `FontesConcluidas` counts the sources that are no longer
 * pending (finished or failed), so it equals `FontesTotal` when the search is complete. A failed source
 * carries our pt-BR sentence in `Erro`, the catalogue code of its failure in `Codigo` and whether a retry may
 * help in `Retentavel`; never the upstream's own text.
 *
 * @example
 * const progresso = toWireProgress(snapshot.version, snapshot.sources, 500);
 */
export const toWireProgress = (version: number, sources: readonly SourceProgress[], nextPollMs: number): WireProgress => ({
  Versao: version,
  FontesTotal: sources.length,
  FontesConcluidas: sources.filter((s) => s.state !== "pending").length,
  Fontes: sources.map((s) => ({
    Nome: s.name,
    Estado: ESTADO[s.state],
    Itens: s.items,
    ...(s.state === "failed" && s.error
      ? { Erro: s.error.message, Codigo: SOURCE_FAILURE[s.error.tag].codigo, Retentavel: s.error.retryable }
      : {}),
  })),
  ProximaConsultaMs: Math.max(0, Math.round(nextPollMs)),
});
