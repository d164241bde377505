import { existsSync, readFileSync } from "node:fs";
import { BusinessError, ModeAEnvelopeSchema } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AGENCY, API_KEY, consultar, fastSources, NOW, QUERY, testApp, type Answer } from "./support/app.js";
import { groupId } from "./support/wire.js";

/**
 * A client of the legacy API that must work unchanged: an axios app that logs in at `/api/Token` with the
 * OAuth2 password grant (form body), renews its token 10 min before it expires, sends its search with the
 * types a .NET-minded client writes (numbers as text, `Ida` with a time, `Volta` `0001-01-01` for one-way),
 * re-sends the same body every 10 s while `ExErro.Extensions.LeaseId` is set, and reads every group of
 * the one answer it gets (it never pages). axios rejects any status outside 2xx.
 */

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

type App = ReturnType<typeof testApp>["app"];

/** What axios throws for a status outside 2xx (its default `validateStatus`): the client's catch sees this. */
class AxiosError extends Error {
  constructor(
    readonly status: number,
    readonly data: unknown,
  ) {
    super(`Request failed with status code ${status}`);
  }
}

/** `axios.post`: JSON or form body, axios' default Accept header, rejects non-2xx. */
const axiosPost = async (app: App, path: string, body: string, headers: Record<string, string>) => {
  const res = await app.request(path, { method: "POST", headers: { Accept: "application/json, text/plain, */*", ...headers }, body });
  const data: unknown = await res.json();
  if (res.status < 200 || res.status > 299) throw new AxiosError(res.status, data);
  return { status: res.status, headers: res.headers, data: data as Answer };
};

/** The body the legacy client sends for a one-way search of {@link QUERY}, exactly as it writes it. */
const LEGACY_BODY = {
  Origem: QUERY.Origem,
  Destino: QUERY.Destino,
  Ida: `${QUERY.Ida}T00:00:00`,
  Volta: "0001-01-01",
  Adultos: "1",
  Criancas: "0",
  Bebes: "0",
  Companhia: "-1",
  Classe: 1,
  TipoViagem: 1,
};

const legacyClient = (app: App) => {
  let token: { value: string; renewAt: number } | undefined;
  const logins: number[] = [];
  const login = async () => {
    const form = new URLSearchParams({ grant_type: "password", username: AGENCY.username, password: AGENCY.password }).toString();
    const res = await axiosPost(app, "/api/Token", form, { "Content-Type": "application/x-www-form-urlencoded" });
    const data = res.data as unknown as { access_token: string; expires_in: number };
    logins.push(Date.now());
    // The client's own margin: it renews 10 min before the token expires.
    token = { value: data.access_token, renewAt: Date.now() + (data.expires_in - 600) * 1000 };
    return token.value;
  };
  const bearer = async () => (token && Date.now() < token.renewAt ? token.value : await login());
  const send = async (body: unknown) =>
    axiosPost(app, "/api/ConsultaAereo/Consultar", JSON.stringify(body), { Authorization: `Bearer ${await bearer()}`, "Content-Type": "application/json" });

  /** The client's search: the first answer, then the same body again every 10 s while it carries a LeaseId. */
  const buscar = async (body: unknown) => {
    const answers = [await send(body)];
    while (answers.at(-1)!.data.ExErro?.Extensions.LeaseId) {
      await vi.advanceTimersByTimeAsync(10_000);
      answers.push(await send(body));
    }
    return answers;
  };
  return { login, send, buscar, logins };
};

/** Sources slow enough that the client polls several times: airlines answer between 5 s and 35 s. */
const slowSources = () =>
  fastSources({ batches: 2, latencyMs: (id) => ({ latam: 5_000, gol: 12_000, azul: 25_000 })[id] ?? 35_000 });

const legacyAgency = { agencies: [{ ...AGENCY, compat: "legacy" as const }] };

const isCash = (f: Answer["Data"][0]["flights"][number]) => f.segments.some((s) => s.PontosAdulto === -1);

describe("a legacy axios client, unchanged", () => {
  it("logs in with a form, polls by re-sending its body every 10 s on ExErro.Extensions.LeaseId, and gets every group unpaged", async () => {
    const { app } = testApp({ sources: slowSources(), configInput: legacyAgency });
    const client = legacyClient(app);
    const answers = await client.buscar(LEGACY_BODY);

    // It polled while the search ran, each answer naming the same search, and stopped when it completed.
    expect(answers.length).toBeGreaterThanOrEqual(4);
    const running = answers.slice(0, -1).map((a) => a.data);
    const id = running[0]!.Token;
    for (const a of running) expect(a).toMatchObject({ Success: true, Completed: false, Token: id, ExErro: { Extensions: { LeaseId: id } } });
    const last = answers.at(-1)!.data;
    expect(last).toMatchObject({ Success: true, Completed: true, Token: id, ExErro: null });
    expect(client.logins).toHaveLength(1);

    // Every answer holds the whole result so far: no page hides anything, and results only grow.
    for (const a of answers) expect(a.data.Data[0].flights).toHaveLength(a.data.TotalItens);
    const counts = answers.map((a) => a.data.TotalItens);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    // Each answer's pagination is the one page holding all of it; the first, with nothing found yet, says 0 items
    // in 0 pages of 0, not a page size of 1 that no page has.
    expect(answers[0]!.data.pagination).toEqual({ currentPage: 1, pageSize: 0, totalPages: 0, totalItems: 0 });
    for (const { data } of answers) {
      expect(ModeAEnvelopeSchema.safeParse(data).success).toBe(true);
      expect(data.pagination).toEqual({ currentPage: 1, pageSize: data.TotalItens, totalPages: data.TotalItens > 0 ? 1 : 0, totalItems: data.TotalItens });
    }

    // What a page of 10 would have hidden: most of the result, cash fares among it.
    const flights = last.Data[0].flights;
    expect(last.TotalItens).toBeGreaterThan(30);
    const cashAt = flights.flatMap((f, i) => (isCash(f) ? [i] : []));
    expect(cashAt.length).toBeGreaterThan(0);
    expect(cashAt.every((i) => i >= 10)).toBe(true);

    // The same groups, in the same order, as a spec client gets by paging through the result.
    const spec = await consultar(app, { ...QUERY, QuantidadePorPagina: 100 }, { Authorization: `Bearer ${API_KEY}` });
    await vi.advanceTimersByTimeAsync(60_000);
    const specIds: string[] = [];
    for (let page = 1; page <= Math.ceil(last.TotalItens / 50); page++) {
      specIds.push(...(await consultar(app, { Token: spec.body.Token, NumeroPagina: page, QuantidadePorPagina: 50 })).body.Data[0].flights.map(groupId));
    }
    expect(flights.map(groupId)).toEqual(specIds);
  });

  it("polling by the LeaseId alone also answers every group; naming a page pages as asked, and the cached answers stay apart", async () => {
    const { app } = testApp({ configInput: legacyAgency });
    const client = legacyClient(app);
    const first = await client.send(LEGACY_BODY);
    const leaseId = first.data.ExErro!.Extensions.LeaseId;
    await vi.advanceTimersByTimeAsync(10_000);
    const all = await client.send({ LeaseId: leaseId });
    expect(all.data.Completed).toBe(true);
    expect(all.data.Data[0].flights).toHaveLength(all.data.TotalItens);
    const page2 = await client.send({ ...LEGACY_BODY, NumeroPagina: "2" });
    expect(page2.data.Data[0].flights.map(groupId)).toEqual(all.data.Data[0].flights.slice(10, 20).map(groupId));
    expect(page2.data.pagination).toMatchObject({ currentPage: 2, pageSize: 10 });
    const again = await client.send(LEGACY_BODY);
    expect({ ...again.data, RequestId: "" }).toEqual({ ...all.data, RequestId: "" });
  });

  it("gets every error as HTTP 200 with Success false and the unchanged envelope; the real status in X-Voar-Status", async () => {
    const { app, logs } = testApp({ configInput: legacyAgency });
    const client = legacyClient(app);
    const invalid = await client.send({ ...LEGACY_BODY, Origem: "XXX", Ida: "2026-03-01T00:00:00", Adultos: "dois" });
    expect(invalid.status).toBe(200);
    expect(invalid.headers.get("x-voar-status")).toBe("400");
    expect(invalid.data).toMatchObject({ Success: false, Completed: true, Data: [], Erro: { Codigo: "REQUISICAO_INVALIDA" } });
    expect(invalid.data.Erro.Campos.map((c) => c.Campo)).toEqual(["Origem", "Ida", "Adultos"]);
    expect(invalid.data.MensagemErro).toContain("Adultos deve ser um número inteiro");
    // The log keeps the real status.
    expect(logs.records.find((r) => r.requestId === invalid.data.RequestId)).toMatchObject({ status: 400, sentStatus: 200, tenant: "agency:agencia1" });

    const unknown = await client.send({ LeaseId: "no-such-search" });
    expect([unknown.status, unknown.headers.get("x-voar-status"), unknown.data.Erro.Campos[0]!.Campo]).toEqual([200, "404", "LeaseId"]);

    const tooBig = await client.send({ ...LEGACY_BODY, Filler: "x".repeat(20_000) });
    expect([tooBig.status, tooBig.headers.get("x-voar-status"), tooBig.data.Erro.Codigo]).toEqual([200, "413", "CORPO_GRANDE_DEMAIS"]);
  });

  it("a rate-limited poll is 200 + Success false with Retry-After, so the client's loop is not broken by a rejection", async () => {
    const { app } = testApp({ configInput: { ...legacyAgency, limits: { rateLimit: { capacity: 3, refillPerSecond: 0.05 } } } });
    const client = legacyClient(app);
    await client.login(); // the login counts against the username's budget, not the tenant's
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await client.send(LEGACY_BODY));
    const limited = answers.at(-1)!;
    expect([limited.status, limited.headers.get("x-voar-status"), limited.headers.get("retry-after")]).toEqual([200, "429", "20"]);
    expect(limited.data).toMatchObject({ Success: false, Erro: { Codigo: "LIMITE_EXCEDIDO", Retentavel: true } });
  });

  it("a search in which every airline failed is 200 + Success false (FALHA_FORNECEDOR), real status 502", async () => {
    const failures = Object.fromEntries(fastSources().filter((s) => s.kind === "airline").map((s) => s.id).map((id) => [id, { error: new BusinessError({ detail: "fora do ar" }) }]));
    const { app } = testApp({ sources: fastSources({ failures }), configInput: legacyAgency });
    const answers = await legacyClient(app).buscar(LEGACY_BODY);
    const last = answers.at(-1)!;
    expect([last.status, last.headers.get("x-voar-status")]).toEqual([200, "502"]);
    expect(last.data).toMatchObject({ Success: false, Completed: true, ExErro: null, Erro: { Codigo: "FALHA_FORNECEDOR" } });
  });

  it("a credential that fails is still 401: there is no known caller to answer the legacy way", async () => {
    const { app } = testApp({ configInput: legacyAgency });
    const res = await app.request("/api/ConsultaAereo/Consultar", { method: "POST", headers: { Authorization: "Bearer not-a-token-of-ours" }, body: JSON.stringify(LEGACY_BODY) });
    expect(res.status).toBe(401);
    expect(res.headers.get("x-voar-status")).toBeNull();
  });

  it("a legacy API key is answered the same way as a legacy agency", async () => {
    const key = "legacy-api-key-0123456789";
    const { app } = testApp({ configInput: { apiKeys: [{ name: "old-app", key, compat: "legacy" }] } });
    const first = await consultar(app, LEGACY_BODY, { Authorization: `Bearer ${key}` });
    await vi.advanceTimersByTimeAsync(10_000);
    const done = await consultar(app, LEGACY_BODY, { Authorization: `Bearer ${key}` });
    expect([first.status, done.status, done.body.Completed]).toEqual([200, 200, true]);
    expect(done.body.Data[0].flights).toHaveLength(done.body.TotalItens);
    const bad = await consultar(app, { ...LEGACY_BODY, Companhia: "99" }, { Authorization: `Bearer ${key}` });
    expect([bad.status, bad.res.headers.get("x-voar-status"), bad.body.Erro.Campos[0]!.Campo]).toEqual([200, "400", "Companhia"]);
  });
});

describe("spec clients (the default) are unchanged", () => {
  it("the legacy body is a 400 naming every field the spec refuses, with the real status and no X-Voar-Status", async () => {
    const { app } = testApp();
    const res = await consultar(app, LEGACY_BODY);
    expect(res.status).toBe(400);
    expect(res.res.headers.get("x-voar-status")).toBeNull();
    expect(res.body.Erro.Campos.map((c) => c.Campo)).toEqual(["Ida", "Volta", "Adultos", "Criancas", "Bebes", "Companhia"]);
  });

  it("no page asked is page 1 of 10, and an agency without compat is a spec client", async () => {
    const { app } = testApp();
    const form = new URLSearchParams({ grant_type: "password", ...AGENCY }).toString();
    const token = ((await (await app.request("/api/Token", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form })).json()) as { access_token: string }).access_token;
    await consultar(app, QUERY, { Authorization: `Bearer ${token}` });
    await vi.advanceTimersByTimeAsync(10_000);
    const { status, body } = await consultar(app, QUERY, { Authorization: `Bearer ${token}` });
    expect(status).toBe(200);
    expect(body.TotalItens).toBeGreaterThan(10);
    expect(body.Data[0].flights).toHaveLength(10);
    expect(body.pagination).toEqual({ currentPage: 1, pageSize: 10, totalPages: Math.ceil(body.TotalItens / 10), totalItems: body.TotalItens });
    expect((await consultar(app, { ...QUERY, Origem: "XXX" }, { Authorization: `Bearer ${token}` })).status).toBe(400);
  });
});

// What real clients of the legacy API send (../shared/recorded, read in place, never copied): each body, its
// placeholders and past dates filled in, must start a search for a legacy client.
const RECORDED = new URL("../../../../shared/recorded/request-bodies-seen-in-clients.json", import.meta.url);
const recorded = existsSync(RECORDED)
  ? (JSON.parse(readFileSync(RECORDED, "utf8")) as { examples: { source: string; body: Record<string, unknown> }[] }).examples
  : [];

describe.skipIf(recorded.length === 0)("request bodies seen in real legacy clients (../shared/recorded; skipped when absent)", () => {
  const fill = (body: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(body).map(([k, v]) => {
        if (typeof v !== "string") return [k, v];
        if (/^(origem)$/i.test(k)) return [k, QUERY.Origem];
        if (/^(destino)$/i.test(k)) return [k, QUERY.Destino];
        if (/^(ida)$/i.test(k)) return [k, QUERY.Ida];
        if (/^(volta)$/i.test(k)) return [k, "2026-03-27"];
        return [k, v];
      }),
    );
  const bodies = recorded.filter((e) => !/validation rules/.test(e.source) && !("LeaseId" in e.body));

  it.each(bodies.map((e) => [e.source.slice(0, 60), e.body] as const))("%s…: starts a search", async (_, body) => {
    const { app } = testApp({ configInput: legacyAgency });
    const res = await legacyClient(app).send(fill(body));
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ Success: true, Erro: null });
  });
});
