/**
 * A backend that answers search requests with a fixture's recorded answers, in order: the n-th search
 * request gets the n-th recorded answer (its delay, status, headers, body, fault), and the last one is
 * repeated once they run out. A recorded 401 revokes the tokens, so the client must log in again.
 */
import type { ConsultarBackend } from "../fake-upstream/consultar-backend.js";
import type { UpstreamReply } from "../fake-upstream/upstream-reply.js";
import { isConsultar, type Fixture, type RecordedResponse } from "../fixtures/fixture-schema.js";

/** A recorded answer as a reply of the fake upstream. */
export const replyOf = (r: RecordedResponse): UpstreamReply => ({
  status: r.status,
  headers: r.headers,
  json: r.json,
  text: r.text,
  delayMs: r.delayMs,
  fault: r.fault,
  truncateAt: r.fault === "truncated" ? (r.text ?? "").length : undefined,
  revokeTokens: r.status === 401,
});

/** The recorded search answers of a fixture, in order. */
export const consultarAnswers = (fixture: Fixture): readonly RecordedResponse[] =>
  fixture.exchanges.filter(isConsultar).map((e) => e.response);

/**
 * A backend replaying a fixture.
 *
 * @example
 * const upstream = createFakeUpstream({ backend: replayBackend(loadFixture("rate-limited")), auth: { accounts: "any" } });
 */
export const replayBackend = (fixture: Fixture): ConsultarBackend & { readonly served: () => number } => {
  const answers = consultarAnswers(fixture);
  if (answers.length === 0) throw new RangeError(`fixture ${fixture.scenario} has no search answer to replay`);
  let next = 0;
  return {
    answer: () => {
      const recorded = answers[Math.min(next, answers.length - 1)]!;
      next++;
      return replyOf(recorded);
    },
    served: () => next,
    close: () => undefined,
  };
};
