/**
 * Loose schema of the upstream response envelope (spec 2.2) as real deployments send it: `Erro`, `ExErro`
 * and `ExceptionErro` as objects, strings or null; `Info`, `RequestId`, `JsonObjectErro` and anything else
 * passed through; `Data` absent, null or empty. Result items in `Data` are read one by one later, so a bad
 * item never spoils the envelope.
 */
import * as z from "zod";
import { lenientBoolean, lenientNumber, lenientText } from "./lenient-primitives.js";

/**
 * An error indicator as upstreams send it: a .NET exception object (`Message`, `StackTrace`, `Extensions`...),
 * our own `{ Codigo, Retentavel, Campos }` (decisions.md), a bare string, or null.
 */
export const upstreamErrorSchema = z.union([
  z.looseObject({
    Message: lenientText.nullish(),
    Mensagem: lenientText.nullish(),
    MensagemErro: lenientText.nullish(),
    Codigo: lenientText.nullish(),
    Extensions: z.looseObject({ LeaseId: lenientText.nullish() }).nullish().catch(undefined),
  }),
  z.string(),
]);

/** A tolerated error member: anything unreadable counts as absent rather than failing the envelope. */
const errorMember = upstreamErrorSchema.nullish().catch(undefined);

/** The response envelope, both modes. Every member is optional: absence is decided by the reader. */
export const upstreamEnvelopeSchema = z.looseObject({
  Success: lenientBoolean.nullish(),
  HasResult: lenientBoolean.nullish().catch(undefined),
  Completed: lenientBoolean.nullish(),
  TotalItens: lenientNumber.nullish().catch(undefined),
  MensagemErro: lenientText.nullish().catch(undefined),
  Erro: errorMember,
  ExErro: errorMember,
  ExceptionErro: errorMember,
  Token: lenientText.nullish().catch(undefined),
  Data: z.array(z.unknown()).nullish(),
});

/** The envelope after {@link upstreamEnvelopeSchema}. */
export type UpstreamEnvelope = z.infer<typeof upstreamEnvelopeSchema>;

/** Members common to every result item of `Data`, whatever its mode: progress and polling hints. */
export const upstreamResultHeaderSchema = z.looseObject({
  ActiveProviders: z.array(z.unknown()).nullish().catch(undefined),
  LeaseId: lenientText.nullish().catch(undefined),
  TokenConsulta: lenientText.nullish().catch(undefined),
  ErroConsulta: upstreamErrorSchema.nullish().catch(undefined),
});

/** A result item header after {@link upstreamResultHeaderSchema}. */
export type UpstreamResultHeader = z.infer<typeof upstreamResultHeaderSchema>;

/** The value of the first `TokenConsulta*` member of a wire object (`TokenConsultaMBX`, `TokenConsultaSvc`, ...). */
export const searchTokenOf = (raw: Readonly<Record<string, unknown>>): string | undefined => {
  // Keys, not entries (no pair allocated per member of every offer), and the pattern tried only on a key that
  // starts with a t: this runs once per offer of every upstream answer.
  for (const key of Object.keys(raw)) {
    const first = key.charCodeAt(0);
    if (first !== 116 && first !== 84) continue;
    const value = raw[key];
    if (/^tokenconsulta/i.test(key) && typeof value === "string" && value.trim() !== "") return value;
  }
  return undefined;
};
