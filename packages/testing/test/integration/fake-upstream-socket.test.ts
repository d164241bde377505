/**
 * The fake upstream over a real loopback socket (@hono/node-server): a reset drops the connection, a
 * truncated body stops short of its announced length, a slow answer is late, and a replayed fixture is
 * served in order: what an HTTP client of a real upstream meets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { createFakeUpstream, createReplayUpstream, createSimulator, liveBackend, loadFixture, type FakeUpstream } from "../../src/index.js";

const listen = (app: FakeUpstream["app"]) =>
  new Promise<{ origin: string; close: () => Promise<void> }>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
      resolve({
        origin: `http://127.0.0.1:${info.port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });

describe("the fake upstream on a socket", () => {
  let upstream: FakeUpstream;
  let served: { origin: string; close: () => Promise<void> };
  beforeAll(async () => {
    upstream = createFakeUpstream({
      backend: liveBackend({ sources: createSimulator({ latencyMs: 100 }).sources }),
      faults: [
        { at: 1, fault: { kind: "reset" } },
        { at: 2, fault: { kind: "truncate" } },
        { at: 3, fault: { kind: "slow", delayMs: 300 } },
      ],
    });
    served = await listen(upstream.app);
  });
  afterAll(async () => {
    await served.close();
    upstream.close();
  });

  const consultar = () =>
    request(`${served.origin}/api/ConsultaAereo/Consultar`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ Origem: "CNF", Destino: "SDU", Ida: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) }),
    });

  it("drops the connection on a reset, cuts a truncated body, answers a slow request late", async () => {
    await expect(consultar().then((r) => r.body.text())).rejects.toMatchObject({ code: expect.stringMatching(/UND_ERR_SOCKET|ECONNRESET/) });
    const truncated = await consultar();
    expect(truncated.statusCode).toBe(200);
    await expect(truncated.body.text()).rejects.toThrow();
    const t0 = performance.now();
    const slow = await consultar();
    expect(await slow.body.json()).toMatchObject({ Success: true });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(280);
  });

  it("replays a fixture in order over the socket", async () => {
    const replay = createReplayUpstream(loadFixture("rate-limited"));
    const s = await listen(replay.app);
    const login = await request(`${s.origin}/api/Token`, { method: "POST", headers: { origin: "externo" }, body: "grant_type=password&username=a&password=b" });
    const { access_token } = (await login.body.json()) as { access_token: string };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await request(`${s.origin}/api/ConsultaAereo/Consultar`, { method: "POST", headers: { authorization: `Bearer ${access_token}` }, body: "{}" });
      statuses.push(r.statusCode);
      await r.body.dump();
    }
    expect(statuses).toEqual([200, 429, 200, 200]);
    await s.close();
  });
});
