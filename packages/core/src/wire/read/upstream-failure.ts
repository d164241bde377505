import { BusinessError } from "../../errors/source-errors.js";
import type { UpstreamAnswer } from "./upstream-answer.js";

/** Said when an upstream refuses a search without a message of its own. */
const NO_MESSAGE = "o fornecedor recusou a consulta sem informar o motivo";

/**
 * The {@link BusinessError} of an answer that says `Success: false` (real upstreams do so with HTTP 200),
 * carrying its clean message; undefined for a successful answer.
 *
 * @example
 * const failure = upstreamFailure(answer); // BusinessError whose message is the upstream's MensagemErro
 */
export const upstreamFailure = (answer: Pick<UpstreamAnswer, "success" | "errorMessage">): BusinessError | undefined =>
  answer.success ? undefined : new BusinessError({ detail: answer.errorMessage ?? NO_MESSAGE });
