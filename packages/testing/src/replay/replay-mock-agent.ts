/**
 * A fixture as an undici `MockAgent`: a dispatcher that answers `POST {base}/Token` with fresh tokens and
 * `POST {base}/ConsultaAereo/Consultar` with the recorded answers in order (delays through `setTimeout`, so
 * fake timers drive them; dropped connections as undici socket errors), the last answer repeated.
 */
import { MockAgent, errors } from "undici";
import { isConsultar, isLogin, type Fixture } from "../fixtures/fixture-schema.js";
import { replyText } from "../fake-upstream/upstream-reply.js";
import { replyOf } from "./replay-backend.js";

/** Options of {@link replayMockAgent}. */
export interface ReplayMockAgentOptions {
  /** Origin the client calls. Default `http://upstream.test`. */
  readonly origin?: string | undefined;
  /** Base path of the routes. Default `/api`. */
  readonly basePath?: string | undefined;
}

/**
 * A MockAgent replaying a fixture; pass it as the undici transport's dispatcher.
 *
 * @example
 * const agent = replayMockAgent(loadFixture("mode-a-one-way"));
 * const source = createUpstreamSource({ baseUrl: "http://upstream.test/api", credentials, dispatcher: agent });
 */
export const replayMockAgent = (fixture: Fixture, options: ReplayMockAgentOptions = {}): MockAgent => {
  const base = options.basePath ?? "/api";
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(options.origin ?? "http://upstream.test");
  const login = fixture.exchanges.find(isLogin)?.response.json;
  const ttl = typeof login === "object" && login !== null && "expires_in" in login && typeof login.expires_in === "number" ? login.expires_in : 3600;
  let issued = 0;
  pool
    .intercept({ path: `${base}/Token`, method: "POST" })
    .reply(() => ({
      statusCode: 200,
      data: JSON.stringify({ access_token: `mock-${++issued}`, token_type: "bearer", expires_in: ttl }),
      responseOptions: { headers: { "content-type": "application/json" } },
    }))
    .persist();
  const answers = fixture.exchanges.filter(isConsultar).map((e) => replyOf(e.response));
  answers.forEach((reply, i) => {
    const last = i === answers.length - 1;
    const interceptor = pool.intercept({ path: `${base}/ConsultaAereo/Consultar`, method: "POST" });
    const scope = reply.fault
      ? interceptor.replyWithError(new errors.SocketError(reply.fault === "reset" ? "other side closed" : "body truncated"))
      : interceptor.reply(reply.status, replyText(reply), {
          headers: { "content-type": "application/json; charset=utf-8", ...reply.headers },
        });
    if (reply.delayMs !== undefined && reply.delayMs > 0) scope.delay(reply.delayMs);
    if (last) scope.persist();
  });
  return agent;
};
