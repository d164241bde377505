import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { asAnswer } from "../support/wire-answer.js";
import { createFakeUpstream, createSimulator, liveBackend, type FakeUpstream, type FaultRule } from "../../src/index.js";

const account = { username: "agencia", password: "segredo" };
const body = { Origem: "CNF", Destino: "SDU", Ida: "2026-09-15", Adultos: 1, Criancas: 0, Bebes: 0, Companhia: -1 };

const upstreamWith = (faults: readonly FaultRule[] = [], tokenTtlS = 3600): FakeUpstream =>
  createFakeUpstream({
    backend: liveBackend({ sources: createSimulator({ latencyMs: { latam: 1000, gol: 2000, azul: 3000 }, batches: 1 }).sources }),
    auth: { accounts: [account], tokenTtlS },
    faults,
  });

const login = async (u: FakeUpstream, headers: Record<string, string> = { origin: "externo" }, password = account.password) =>
  u.fetch(`${u.baseUrl}/Token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ grant_type: "password", username: account.username, password }).toString(),
  });

const tokenOf = async (u: FakeUpstream) => ((await (await login(u)).json()) as { access_token: string }).access_token;

const consultar = (u: FakeUpstream, token: string, json: unknown = body) =>
  u.fetch(`${u.baseUrl}/ConsultaAereo/Consultar`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(json),
  });

describe("the fake upstream", () => {
  let upstream: FakeUpstream;
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 5, 1, 12) });
    upstream = upstreamWith();
  });
  afterEach(() => {
    upstream.close();
    vi.useRealTimers();
  });

  it("logs in with the password grant only with Origin externo and the right password", async () => {
    expect((await login(upstream, {})).status).toBe(400);
    expect((await login(upstream, { origin: "externo" }, "errada")).status).toBe(400);
    const ok = await login(upstream);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ token_type: "bearer", expires_in: 3600, access_token: expect.any(String) });
  });

  it("answers 401 to a missing, unknown or expired token", async () => {
    const short = upstreamWith([], 60);
    const token = await tokenOf(short);
    expect((await consultar(short, "nada")).status).toBe(401);
    expect((await consultar(short, token)).status).toBe(200);
    await vi.advanceTimersByTimeAsync(61_000);
    const expired = await consultar(short, token);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ Message: expect.any(String) });
    short.close();
  });

  it("starts with Completed false and every provider active, grows over polls with the LeaseId, then completes", async () => {
    const token = await tokenOf(upstream);
    const first = asAnswer(await (await consultar(upstream, token)).json());
    expect(first).toMatchObject({ Success: true, Completed: false, ExceptionErro: null, Info: null, ExErro: { Extensions: { LeaseId: expect.any(String) } } });
    expect(first.Data[0]!.ActiveProviders).toEqual(expect.arrayContaining(["LATAM", "GOL", "Azul"]));
    expect(first.Data[0]!.flights).toEqual([]);
    const lease = first.ExErro!.Extensions!.LeaseId!;
    const sizes: number[] = [];
    let last = first;
    for (let i = 0; i < 5 && last.Completed !== true; i++) {
      await vi.advanceTimersByTimeAsync(1_000);
      last = asAnswer(await (await consultar(upstream, token, { LeaseId: lease })).json());
      sizes.push(last.Data[0]!.flights!.length);
    }
    expect(last).toMatchObject({ Completed: true, ExErro: null });
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(sizes[0]).toBeLessThan(sizes.at(-1)!);
    expect(JSON.stringify(last)).toContain("TokenConsultaMBX");
  });

  it("injects the real service's failures by request number", async () => {
    const faulty = upstreamWith([
      { at: 1, fault: { kind: "rate-limit", retryAfterS: 3 } },
      { at: 2, fault: { kind: "status", status: 503 } },
      { at: 3, fault: { kind: "business-error", message: "Sem permissão." } },
      { at: 4, fault: { kind: "truncate" } },
      { at: 5, fault: { kind: "reset" } },
      { at: 6, fault: { kind: "slow", delayMs: 5_000 } },
      { at: 7, fault: { kind: "revoke-tokens" } },
    ]);
    const token = await tokenOf(faulty);
    const limited = await consultar(faulty, token);
    expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "3"]);
    const failed = await consultar(faulty, token);
    expect(failed.status).toBe(503);
    expect(await failed.text()).toContain("StackTrace");
    expect(await (await consultar(faulty, token)).json()).toMatchObject({ Success: false, MensagemErro: "Sem permissão.", ExceptionErro: { StackTrace: expect.any(String) } });
    await expect((await consultar(faulty, token)).text()).rejects.toThrow();
    await expect((await consultar(faulty, token)).text()).rejects.toThrow();
    let slowDone = false;
    const slow = consultar(faulty, token).then((r) => ((slowDone = true), r));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(slowDone).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await slow).status).toBe(200);
    expect((await consultar(faulty, token)).status).toBe(401);
    expect((await consultar(faulty, token)).status).toBe(401);
    expect((await consultar(faulty, await tokenOf(faulty))).status).toBe(200);
    faulty.close();
  });

  it("a slow answer the client gives up on rejects with the client's reason, and logs nothing", async () => {
    const faulty = upstreamWith([{ at: 1, fault: { kind: "slow", delayMs: 30_000 } }]);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const token = await tokenOf(faulty);
    const controller = new AbortController();
    const answer = faulty.fetch(`${faulty.baseUrl}/ConsultaAereo/Consultar`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    const reason = new Error("gave up");
    const rejected = expect(answer).rejects.toBe(reason);
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort(reason);
    await rejected;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    faulty.close();
  });

  it("keeps one search per query and tenant, and rejects a lease that is not known", async () => {
    const token = await tokenOf(upstream);
    const a = asAnswer(await (await consultar(upstream, token)).json());
    const b = asAnswer(await (await consultar(upstream, token)).json());
    expect(b.ExErro?.Extensions?.LeaseId).toBe(a.ExErro?.Extensions?.LeaseId);
    expect(await (await consultar(upstream, token, { LeaseId: "nenhum" })).json()).toMatchObject({ Success: false });
  });
});
