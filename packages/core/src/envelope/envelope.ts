import * as z from "zod";
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode, type ErrorStatus } from "../errors/error-catalogue.js";
import { ModeAResultGroupSchema, type ModeAResultGroup } from "./mode-a-schema.js";
import { ModeBSearchResultSchema, type ModeBSearchResult } from "./mode-b-schema.js";
import { ProgressoSchema, type WireProgress } from "./progress.js";
import { CountSchema } from "./scalars.js";

/**
 * The response envelope (spec 2.2 with decisions.md): strict zod schemas of the Mode A, Mode B / single-airline
 * and failure answers (no transforms, so `z.toJSONSchema` turns them into OpenAPI 3.1 components), and the
 * functions that assemble them.
 */

/** One invalid field of a request: its name as the spec writes it, and why, in pt-BR. */
export const FieldErrorSchema = z
  .strictObject({
    Campo: z.string().meta({ description: "Nome do campo como a especificação o escreve (Ida, Origem, ...)." }),
    Mensagem: z.string(),
  })
  .meta({ id: "CampoInvalido" });

/** The envelope's `Erro` on failure: a stable code, a retry hint and, for validation, the failing fields. */
export const WireErrorSchema = z
  .strictObject({
    Codigo: z.enum(ERROR_CODES),
    Retentavel: z.boolean(),
    Campos: z.array(FieldErrorSchema).min(1).optional().meta({ description: "Em REQUISICAO_INVALIDA e BUSCA_EXPIRADA: o campo a corrigir." }),
  })
  .meta({ id: "Erro" });

/** `pagination` of a Mode A answer (decisions.md names). */
export const PaginationSchema = z
  .strictObject({
    currentPage: z.int().min(1),
    pageSize: CountSchema.meta({
      description:
        "Itens por página (1 a 100); para um cliente legado que não pede página, o total de itens (página única; 0 enquanto não há nenhum, com totalPages 0).",
    }),
    totalPages: CountSchema,
    totalItems: CountSchema,
  })
  .meta({ id: "Paginacao" });

/** `ExErro`: carries the search id while the search runs, for clients of the real deployment; null otherwise. */
export const ExErroSchema = z
  .strictObject({ Extensions: z.strictObject({ LeaseId: z.string().min(1) }) })
  .nullable()
  .meta({ description: "Enquanto Completed é false, { Extensions: { LeaseId } } com o id da busca; depois null." });

const successMembers = {
  TotalItens: CountSchema.meta({ description: "Itens do resultado inteiro até agora (não só da página)." }),
  Completed: z.boolean().meta({ description: "false: a busca continua; repita a consulta. true: resultado completo." }),
  Success: z.literal(true),
  HasResult: z.boolean(),
  Erro: z.null(),
  MensagemErro: z.null(),
  Token: z.string().nullable().meta({ description: "Id da busca: envie { Token } para consultar de novo." }),
  RequestId: z.string(),
  Progresso: ProgressoSchema.optional(),
  ExErro: ExErroSchema,
};

/** A Mode A success answer (Companhia -1 or null). */
export const ModeAEnvelopeSchema = z
  .strictObject({ ...successMembers, Data: z.array(ModeAResultGroupSchema), pagination: PaginationSchema })
  .meta({ id: "RespostaModoA", description: "Resposta da busca em todas as companhias (Modo A), paginada." });

/** A Mode B or single-airline success answer (Companhia 1300 or an airline id). */
export const ModeBEnvelopeSchema = z
  .strictObject({ ...successMembers, Data: z.array(ModeBSearchResultSchema), pagination: PaginationSchema.optional() })
  .meta({ id: "RespostaModoB", description: "Resposta da comparação entre agências (Modo B) ou de uma só companhia." });

/** A failure answer: every code of the catalogue, with its HTTP status. */
export const ErrorEnvelopeSchema = z
  .strictObject({
    TotalItens: z.literal(0),
    Completed: z.literal(true),
    Success: z.literal(false),
    HasResult: z.literal(false),
    Erro: WireErrorSchema,
    MensagemErro: z.string().min(1),
    Data: z.array(z.never()).meta({ description: "Sempre vazia numa falha." }),
    Token: z.string().nullable(),
    RequestId: z.string(),
    Progresso: ProgressoSchema.optional(),
    ExErro: z.null(),
  })
  .meta({ id: "RespostaErro", description: "Resposta de falha: Success false, Erro com código estável." });

/** Any answer of `POST /ConsultaAereo/Consultar`. */
export const EnvelopeSchema = z.union([ModeAEnvelopeSchema, ModeBEnvelopeSchema, ErrorEnvelopeSchema]);

/** A failing field as written. */
export type FieldError = z.infer<typeof FieldErrorSchema>;
/** `pagination` as written. */
export type Pagination = z.infer<typeof PaginationSchema>;
/** A Mode A success envelope as written. */
export type ModeAEnvelope = z.infer<typeof ModeAEnvelopeSchema>;
/** A Mode B or single-airline success envelope as written. */
export type ModeBEnvelope = z.infer<typeof ModeBEnvelopeSchema>;
/** A failure envelope as written. */
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/** Options of {@link errorEnvelope}. */
export interface ErrorEnvelopeOptions {
  /** Id of this request (`RequestId`). */
  readonly requestId: string;
  /** Overrides the catalogue's default `MensagemErro`. */
  readonly mensagem?: string | undefined;
  /** Overrides the catalogue's `Retentavel` (a failed search's follows its sources: `failedSearchAnswer`). */
  readonly retentavel?: boolean | undefined;
  /** The failing fields of an invalid request; written as `Erro.Campos` when non-empty. */
  readonly campos?: readonly FieldError[] | undefined;
  /** Progress to show (e.g. which sources failed, for `FALHA_FORNECEDOR`). */
  readonly progresso?: WireProgress | undefined;
  /** Search id, when the failure concerns a known search. */
  readonly token?: string | null | undefined;
}

/**
 * Builds a failure answer from the error catalogue: the HTTP status and the envelope with `Success: false`,
 * `Completed: true`, `Data: []`, and a pt-BR `MensagemErro`. For an invalid request without an explicit
 * message, the fields' messages follow the catalogue sentence so that a person reading it learns what to fix.
 *
 * @example
 * const { status, body } = errorEnvelope("REQUISICAO_INVALIDA", { requestId, campos: parsed.campos });
 */
export const errorEnvelope = (
  code: ErrorCode,
  opts: ErrorEnvelopeOptions,
): { readonly status: ErrorStatus; readonly body: ErrorEnvelope } => {
  const entry = ERROR_CATALOGUE[code];
  const campos = opts.campos && opts.campos.length > 0 ? opts.campos.map((c) => ({ Campo: c.Campo, Mensagem: c.Mensagem })) : undefined;
  const mensagem = opts.mensagem ?? (campos ? [entry.mensagem, ...campos.map((c) => c.Mensagem)].join(" ") : entry.mensagem);
  return {
    status: entry.status,
    body: {
      TotalItens: 0,
      Completed: true,
      Success: false,
      HasResult: false,
      Erro: { Codigo: code, Retentavel: opts.retentavel ?? entry.retentavel, ...(campos ? { Campos: campos } : {}) },
      MensagemErro: mensagem,
      Data: [],
      Token: opts.token ?? null,
      RequestId: opts.requestId,
      ...(opts.progresso ? { Progresso: opts.progresso } : {}),
      ExErro: null,
    },
  };
};

/** What {@link successEnvelope} assembles: `Data` already mapped (Mode A groups or Mode B results). */
export interface SuccessEnvelopeInput<D extends object> {
  readonly data: readonly D[];
  /** `TotalItens`: items of the whole result set so far; `HasResult` is `totalItems > 0`. */
  readonly totalItems: number;
  /** The search id (`Token`), or null. */
  readonly token: string | null;
  readonly completed: boolean;
  readonly requestId: string;
  /** Required for Mode A answers, optional otherwise. */
  readonly pagination?: Pagination | undefined;
  readonly progress?: WireProgress | undefined;
}

/** A success envelope as {@link successEnvelope} writes it, generic in its `Data` element. */
export interface SuccessEnvelope<D extends object> {
  readonly TotalItens: number;
  readonly Completed: boolean;
  readonly Success: true;
  readonly HasResult: boolean;
  readonly Erro: null;
  readonly MensagemErro: null;
  readonly Data: (D & { readonly LeaseId?: string })[];
  readonly Token: string | null;
  readonly pagination?: Pagination;
  readonly RequestId: string;
  readonly Progresso?: WireProgress;
  readonly ExErro: { readonly Extensions: { readonly LeaseId: string } } | null;
}

/**
 * Assembles a success answer (status 200). Compatibility rule of decisions.md: while the search runs
 * (`completed` false) and has an id, the id is also written as `ExErro.Extensions.LeaseId` and `Data[0].LeaseId`,
 * which is what existing clients poll on; once complete `ExErro` is null. `Erro` is null either way.
 *
 * @example
 * const body = successEnvelope({ data: [toWireModeAGroup(page, meta)], totalItems, token, completed, requestId, pagination });
 */
export const successEnvelope = <D extends object>(input: SuccessEnvelopeInput<D>): SuccessEnvelope<D> => {
  const leaseId = !input.completed && input.token ? input.token : undefined;
  const data: (D & { readonly LeaseId?: string })[] = input.data.map((d, i) => (i === 0 && leaseId ? { ...d, LeaseId: leaseId } : d));
  return {
    TotalItens: input.totalItems,
    Completed: input.completed,
    Success: true,
    HasResult: input.totalItems > 0,
    Erro: null,
    MensagemErro: null,
    Data: data,
    Token: input.token,
    ...(input.pagination ? { pagination: input.pagination } : {}),
    RequestId: input.requestId,
    ...(input.progress ? { Progresso: input.progress } : {}),
    ExErro: leaseId ? { Extensions: { LeaseId: leaseId } } : null,
  };
};

/** A Mode A success answer: {@link successEnvelope} with its required `pagination`. */
export const modeAEnvelope = (input: SuccessEnvelopeInput<ModeAResultGroup> & { readonly pagination: Pagination }): ModeAEnvelope => ({
  ...successEnvelope(input),
  pagination: input.pagination,
});

/** A Mode B or single-airline success answer: {@link successEnvelope} over Mode B search results. */
export const modeBEnvelope = (input: SuccessEnvelopeInput<ModeBSearchResult>): ModeBEnvelope => successEnvelope(input);
