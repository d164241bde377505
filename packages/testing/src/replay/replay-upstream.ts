/** A fixture served by the fake upstream: a Hono app that replays it over HTTP. */
import { createFakeUpstream, type FakeUpstream } from "../fake-upstream/create-fake-upstream.js";
import type { FakeAuthOptions } from "../fake-upstream/token-store.js";
import { isLogin, type Fixture } from "../fixtures/fixture-schema.js";
import { replayBackend } from "./replay-backend.js";

/** Options of {@link createReplayUpstream}. */
export interface ReplayUpstreamOptions {
  /** Credentials accepted. Default: any username and password, tokens living as long as the recorded login said. */
  readonly auth?: FakeAuthOptions | undefined;
  readonly basePath?: string | undefined;
}

/** The `expires_in` of the fixture's first login answer, if it has one. */
const recordedTtl = (fixture: Fixture): number | undefined => {
  const json = fixture.exchanges.find(isLogin)?.response.json;
  const ttl = typeof json === "object" && json !== null && "expires_in" in json ? json.expires_in : undefined;
  return typeof ttl === "number" ? ttl : undefined;
};

/**
 * A fake upstream replaying a fixture: logins are served by its token store, search requests by the
 * recorded answers in order (see `replayBackend`).
 *
 * @example
 * const upstream = createReplayUpstream(loadFixture("token-expiry-mid-search"));
 * const source = createUpstreamSource({ baseUrl: upstream.baseUrl, credentials, fetch: upstream.fetch });
 */
export const createReplayUpstream = (fixture: Fixture, options: ReplayUpstreamOptions = {}): FakeUpstream & { readonly served: () => number } => {
  const backend = replayBackend(fixture);
  const upstream = createFakeUpstream({
    backend,
    auth: options.auth ?? { accounts: "any", tokenTtlS: recordedTtl(fixture) },
    basePath: options.basePath,
  });
  return { ...upstream, served: backend.served };
};
