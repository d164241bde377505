/**
 * The undici source over real loopback sockets, against fixtures replayed by the fake upstream: dropped
 * connections and cut bodies as the network shows them, a 401 mid-search, and the complete result.
 */
import { describe, expect, it } from "vitest";
import { lastValueFrom } from "rxjs";
import { search } from "@voar/core";
import { createReplayUpstream, loadFixture } from "@voar/testing";
import { createUpstreamSource } from "../../src/index.js";
import { finalOffers } from "../support/expected-offers.js";
import { queryOf } from "../support/scenario-query.js";
import { serveLoopback } from "./support/serve.js";

describe("the undici source over loopback", () => {
  it.each(["flaky-transport", "token-expiry-mid-search"])("%s: completes with every offer", async (name) => {
    const fixture = loadFixture(name);
    const upstream = createReplayUpstream(fixture);
    const served = await serveLoopback(upstream.app.fetch);
    const source = createUpstreamSource({
      baseUrl: `${served.origin}/api`,
      credentials: { username: "agencia", password: "segredo" },
      polling: { initialDelayMs: 20, maxDelayMs: 50 },
      connections: 2,
    });
    const query = queryOf(fixture);
    try {
      const last = await lastValueFrom(search(query, [source], { baseDelayMs: 20 }));
      expect(last.sources[0]).toMatchObject({ state: "done" });
      expect(last.offers.size).toBe(finalOffers(fixture, source.id, query).length);
    } finally {
      await source.close();
      await served.close();
    }
  });
});
