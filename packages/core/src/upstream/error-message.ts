/**
 * The one clean line an upstream error deserves. Upstreams put .NET exceptions on the wire (`ExErro`,
 * `ExceptionErro` with `StackTrace`); only a human message may come out of here, never a stack frame.
 */
import type { UpstreamEnvelope, UpstreamResultHeader } from "./envelope-schema.js";

type ErrorValue = NonNullable<UpstreamEnvelope["Erro"]>;

/** Longest message kept; longer ones are cut with an ellipsis. */
const MAX_LENGTH = 240;

/** A stack frame as .NET and JavaScript print them (`   at Ns.Type.Method(...) in file:line 43`). */
const STACK_FRAME = /(?:^|\s)at\s+[\w$.<>`[\]]+\s*\(|\bin\s+\S+:line\s+\d+|\s{2,}at\s/;

/**
 * Reduces a text to one clean line: first line only, cut before anything that looks like a stack frame,
 * whitespace collapsed, length capped. Undefined when nothing human is left.
 */
export const cleanMessage = (text: string | null | undefined): string | undefined => {
  if (typeof text !== "string") return undefined;
  const firstLine = text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  const frame = STACK_FRAME.exec(firstLine);
  const kept = (frame ? firstLine.slice(0, frame.index) : firstLine).replace(/\s+/g, " ").trim();
  if (kept === "") return undefined;
  return kept.length > MAX_LENGTH ? `${kept.slice(0, MAX_LENGTH - 1)}…` : kept;
};

const messageOf = (error: ErrorValue | null | undefined): string | undefined => {
  if (error === null || error === undefined) return undefined;
  if (typeof error === "string") return cleanMessage(error);
  return cleanMessage(error.MensagemErro) ?? cleanMessage(error.Mensagem) ?? cleanMessage(error.Message);
};

/**
 * The error message of an answer, if it carries one: `MensagemErro` first, then the `Message` of `Erro`,
 * `ExErro`, `ExceptionErro`, then a result item's `ErroConsulta`. Never a stack trace.
 */
export const errorMessageOf = (
  envelope: UpstreamEnvelope,
  headers: readonly UpstreamResultHeader[],
): string | undefined =>
  cleanMessage(envelope.MensagemErro) ??
  messageOf(envelope.Erro) ??
  messageOf(envelope.ExErro) ??
  messageOf(envelope.ExceptionErro) ??
  headers.map((h) => messageOf(h.ErroConsulta)).find((m) => m !== undefined);
