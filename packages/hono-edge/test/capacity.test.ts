import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { consultar, NOW, OTHER_KEY, QUERY, testApp } from "./support/app.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

/** The n-th distinct query (a different departure day each): a new search each. */
const queryN = (n: number) => ({ ...QUERY, Ida: new Date(Date.UTC(2026, 3, 1 + n)).toISOString().slice(0, 10) });
const asOther = { Authorization: `Bearer ${OTHER_KEY}` };

/** Opens `count` searches for a tenant; the answers in order. */
const open = async (app: Parameters<typeof consultar>[0], count: number, headers: Record<string, string> = {}, from = 0) => {
  const answers = [];
  for (let i = from; i < from + count; i++) answers.push(await consultar(app, queryN(i), headers));
  return answers;
};

describe("session capacity: a running search is never dropped to make room", () => {
  it("per tenant: tenant B opening many searches is refused at its cap, and tenant A's running searches all complete", async () => {
    const { app, logs } = testApp({ configInput: { limits: { rateLimit: { capacity: 10_000, refillPerSecond: 10_000 }, maxSessions: 20, maxSessionsPerTenant: 4 } } });
    const a = await open(app, 3);
    expect(a.map((r) => r.status)).toEqual([200, 200, 200]);
    const b = await open(app, 30, asOther, 10);
    expect(b.slice(0, 4).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const refused of b.slice(4)) {
      expect(refused.status).toBe(429);
      expect(refused.res.headers.get("retry-after")).toBe("60"); // the soonest of B's searches reaches its deadline in 60 s
      expect(refused.body.Erro).toMatchObject({ Codigo: "LIMITE_EXCEDIDO", Retentavel: true });
      expect(refused.body.MensagemErro).toContain("buscas simultâneas da sua conta");
    }
    expect(logs.records.filter((r) => r.msg === "search.refused")).toHaveLength(26);
    expect(logs.records.find((r) => r.msg === "search.refused")).toMatchObject({ level: "warn", tenant: "apikey:other", scope: "tenant" });
    // A's own budget is untouched by B.
    expect((await consultar(app, queryN(5))).status).toBe(200);

    await vi.advanceTimersByTimeAsync(1_000);
    for (const started of a) {
      const poll = await consultar(app, { Token: started.body.Token });
      expect(poll.status).toBe(200);
      expect(poll.body).toMatchObject({ Token: started.body.Token, Completed: true, Success: true });
    }
    for (const started of b.slice(0, 4)) {
      expect((await consultar(app, { Token: started.body.Token }, asOther)).body).toMatchObject({ Completed: true });
    }
    // Completed searches make room: B may search again.
    expect((await consultar(app, queryN(20), asOther)).status).toBe(200);
  });

  it("in all: at maxSessions new searches are refused (429, Retry-After) while every running one completes; completed ones are evicted least recently used first", async () => {
    const { app, logs } = testApp({ configInput: { limits: { rateLimit: { capacity: 10_000, refillPerSecond: 10_000 }, maxSessions: 5, maxSessionsPerTenant: 100 } } });
    const a = await open(app, 3);
    const b = await open(app, 10, asOther, 10);
    expect([...a, ...b].map((r) => r.status)).toEqual([200, 200, 200, 200, 200, ...Array<number>(8).fill(429)]);
    expect(b[2]!.res.headers.get("retry-after")).toBe("60");
    expect(b[2]!.body.MensagemErro).toContain("O serviço está no limite");
    expect(logs.records.find((r) => r.msg === "search.refused")).toMatchObject({ scope: "instance" });
    // Joining a running search needs no room.
    expect((await consultar(app, queryN(0))).body.Token).toBe(a[0]!.body.Token);

    await vi.advanceTimersByTimeAsync(30_000);
    // Retry-After shrinks with the deadline of the soonest running search; here all completed already.
    for (const started of [...a, ...b.slice(0, 2)]) {
      const poll = await consultar(app, { Token: started.body.Token }, started === a[0] || a.includes(started) ? {} : asOther);
      expect(poll.body).toMatchObject({ Completed: true, Success: true });
    }
    const again = await open(app, 5, asOther, 20);
    expect(again.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // The least recently used completed searches made room for them: A's first search is gone.
    expect((await consultar(app, { Token: a[0]!.body.Token })).status).toBe(404); // BUSCA_EXPIRADA
  });
});
