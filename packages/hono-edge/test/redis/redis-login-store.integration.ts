/**
 * The upstream's token and the claim on its next login on a real Redis, shared by two instances (two
 * connections): one claim at a time, the token one got read by the other, a refused token dropped for both
 * (but not a newer one); then two fan-outs against the fake upstream over one Redis: one login for both.
 */
import { describe, expect, it } from "vitest";
import { search, type SearchQuery } from "@voar/core";
import { createFanOutSources } from "@voar/http-adapter/fetch";
import { createFakeUpstream, createSimulator, liveBackend } from "@voar/testing";
import { lastValueFrom } from "rxjs";
import { redisLoginStore } from "../../src/redis/index.js";
import { connectRedis, deleteKeys, testPrefix } from "./support/redis-harness.js";

const twoInstances = async () => {
  const [one, two] = [await connectRedis(), await connectRedis()];
  const prefix = testPrefix();
  return {
    a: redisLoginStore({ redis: one, keyPrefix: prefix }),
    b: redisLoginStore({ redis: two, keyPrefix: prefix }),
    done: async () => {
      await deleteKeys(one, prefix);
      await Promise.all([one.quit(), two.quit()]);
    },
  };
};

describe("the upstream's login on Redis", () => {
  it("one claim at a time across instances; the token one keeps is the other's; a refused token is dropped, a newer one kept", async () => {
    const { a, b, done } = await twoInstances();
    try {
      expect(await a.claim(5_000)).toBe(true);
      expect(await b.claim(5_000)).toBe(false);
      await a.set({ token: "t-1", refreshAt: Date.now() + 50_000 }, 60_000);
      await a.release();
      expect(await b.get()).toEqual({ token: "t-1", refreshAt: expect.any(Number) });
      expect(await b.claim(5_000)).toBe(true);
      await b.set({ token: "t-2", refreshAt: Date.now() + 50_000 }, 60_000);
      await a.drop("t-1"); // an instance that still held the old token saw it refused
      expect((await a.get())?.token).toBe("t-2");
      await b.drop("t-2");
      expect(await a.get()).toBeUndefined();
    } finally {
      await done();
    }
  });

  it("two instances' searches log in to the upstream once", async () => {
    const upstream = createFakeUpstream({ backend: liveBackend({ sources: createSimulator({ latencyMs: 50 }).sources }), auth: { accounts: [{ username: "agencia", password: "segredo" }] } });
    const { a, b, done } = await twoInstances();
    try {
      const options = { baseUrl: upstream.baseUrl, credentials: { username: "agencia", password: "segredo" }, fetch: upstream.fetch, airlines: [1, 2] };
      const one = createFanOutSources({ ...options, login: { store: a } });
      const other = createFanOutSources({ ...options, login: { store: b } });
      const q = (day: number): SearchQuery => ({ origin: "CNF", destination: "SDU", departureDate: new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10), passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "all-airlines" } });
      await lastValueFrom(search(q(30), one));
      await lastValueFrom(search(q(31), other));
      expect(upstream.stats.logins).toBe(1);
    } finally {
      upstream.close();
      await done();
    }
  });
});
