import { createFakeUpstream, liveBackend, serveOnNode, type ConsultarBackend, type FakeUpstream, type FaultRule, type ServedOnNode } from "@voar/testing";
import { createSimulator } from "@voar/testing/simulator";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bundleWorkerd } from "../../scripts/bundle-workerd.js";
import { daysAhead, type Envelope } from "../contract/contract-target.js";
import { startWorkerd, type WorkerdServer } from "./support/workerd-miniflare.js";

// The Worker of wrangler.toml in miniflare 3 on a real ConsultaAereo upstream: @voar/testing's fake upstream
// (live searches over the simulator, an agency login) on a loopback port, named by VOAR_UPSTREAM_URL with
// the login and the allowed airlines as the Worker's bindings (the password as `wrangler secret put` would
// add it). Each search object logs in and asks the upstream itself, through @voar/http-adapter/fetch.

const API_KEY = "acme-api-key-0123456789";
const OTHER_KEY = "other-agency-key-0123456789";
const ACCOUNT = { username: "agencia-worker", password: "s3nha-do-fornecedor-9f2c" };

interface Upstream {
  readonly fake: FakeUpstream;
  readonly served: ServedOnNode;
  /** The Companhia of every search the upstream was asked to start (its polls name a search id instead). */
  readonly asked: number[];
}

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** The fake upstream on 127.0.0.1; its simulated airlines answer after `latencyMs`. */
const startUpstream = async (latencyMs: number, faults: readonly FaultRule[] = []): Promise<Upstream> => {
  const asked: number[] = [];
  const live = liveBackend({ sources: createSimulator({ latencyMs }).sources });
  const logging: ConsultarBackend = {
    answer: (call) => {
      const companhia = (call.body as { Companhia?: unknown }).Companhia;
      if (companhia !== undefined && companhia !== null) asked.push(Number(companhia));
      return live.answer(call);
    },
    close: () => live.close(),
  };
  const fake = createFakeUpstream({ backend: logging, auth: { accounts: [ACCOUNT] }, faults });
  const served = await serveOnNode(fake.app.fetch);
  cleanup.push(
    () => fake.close(),
    () => served.close(),
  );
  return { fake, served, asked };
};

const upstreamBindings = (upstream: Upstream, extra: Record<string, string> = {}) => ({
  VOAR_API_KEYS: `acme:${API_KEY}`,
  VOAR_RATE_LIMIT_CAPACITY: "100000",
  VOAR_RATE_LIMIT_REFILL_PER_SECOND: "100000",
  VOAR_UPSTREAM_URL: `${upstream.served.origin}/api`,
  VOAR_UPSTREAM_USERNAME: ACCOUNT.username,
  VOAR_UPSTREAM_PASSWORD: ACCOUNT.password,
  VOAR_UPSTREAM_AIRLINES: "1,3",
  ...extra,
});

const start = async (bindings: Record<string, string>, persist?: string) => {
  const server = await startWorkerd(bindings, persist);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.mf.dispose();
  };
  // Workers are stopped before the upstream they call (cleanup runs in reverse).
  cleanup.push(stop);
  return { server, stop };
};

const storageFolder = async () => {
  const folder = await mkdtemp(path.join(tmpdir(), "voar-do-upstream-"));
  cleanup.push(() => rm(folder, { recursive: true, force: true }));
  return folder;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const consultar = async (server: WorkerdServer, body: unknown, apiKey = API_KEY) => {
  const res = await fetch(`${server.baseUrl}/api/ConsultaAereo/Consultar`, {
    method: "POST",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.clone().text(), body: (await res.json()) as Envelope };
};

/**
 * Polls by id until complete (bounded: 300 polls, 100 ms apart); every answer. A search whose every source
 * failed ends with `failed` (the service's 502 FALHA_FORNECEDOR envelope); until then every answer is a 200.
 */
const pollToCompletion = async (server: WorkerdServer, token: unknown, failed = 200, apiKey = API_KEY) => {
  const answers: { status: number; text: string; body: Envelope }[] = [];
  for (let i = 0; i < 300; i++) {
    const { status, text, body } = await consultar(server, { LeaseId: token, QuantidadePorPagina: 100 }, apiKey);
    expect(status, text.slice(0, 300)).toBe(body["Completed"] === true ? failed : 200);
    answers.push({ status, text, body });
    if (body["Completed"] === true) return answers;
    await sleep(100);
  }
  throw new Error("the search did not complete within 300 polls");
};

type Fonte = { Nome: string; Estado: string; Itens: number };
const fontes = (body: Envelope) => (body["Progresso"] as { Fontes: Fonte[] }).Fontes;
/** The Companhia of every offer (`IdCiaResponsavel` of each segment). */
const airlinesOfOffers = (body: Envelope): number[] =>
  (body["Data"] as { flights: { segments: { IdCiaResponsavel: number }[] }[] }[]).flatMap((group) =>
    group.flights.flatMap((f) => f.segments.map((s) => s.IdCiaResponsavel)),
  );

describe("workerd on a real upstream (VOAR_UPSTREAM_* bindings, @voar/http-adapter/fetch)", () => {
  it("the Worker's bundle carries the adapter's fetch build, and neither undici nor a Node module", async () => {
    const { metafile } = await bundleWorkerd();
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.some((f) => f.endsWith("http-adapter/src/fetch.ts"))).toBe(true);
    expect(inputs.filter((f) => /undici|http-adapter\/src\/index\.ts|\/transport\/undici-/.test(f))).toEqual([]);
    const imports = Object.values(metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
    expect(imports).toEqual([]);
  });

  it("a search started on one instance completes from a fresh instance with the upstream's offers, the allowed airlines' alone", async () => {
    // Slow upstream airlines (2 s): the first instance is gone long before they answer.
    const upstream = await startUpstream(2_000);
    const folder = await storageFolder();
    const bindings = upstreamBindings(upstream);
    const first = await start(bindings, folder);
    const query = { Origem: "CNF", Destino: "GRU", Ida: daysAhead(20), QuantidadePorPagina: 100 };
    const started = await consultar(first.server, query);
    expect(started.status, started.text.slice(0, 300)).toBe(200);
    expect(started.body).toMatchObject({ Success: true, Completed: false });
    const token = started.body["Token"];
    await first.stop();

    const fresh = await start(bindings, folder);
    const answers = await pollToCompletion(fresh.server, token);
    expect(answers[0]!.body["Completed"]).toBe(false);
    const last = answers.at(-1)!.body;
    expect(last).toMatchObject({ Success: true, Completed: true, HasResult: true, Token: token });
    // The sources are the upstream's allowed airlines, and nothing else (no simulator, no OTA comparison in Mode A).
    expect(fontes(last).map((f) => [f.Nome, f.Estado])).toEqual([
      ["LATAM", "concluida"],
      ["Azul", "concluida"],
    ]);
    expect(last["TotalItens"]).toBeGreaterThan(0);
    expect(new Set(airlinesOfOffers(last))).toEqual(new Set([1, 3]));

    // The upstream was asked one all-airlines search (the default strategy), on the account's login; the other
    // airlines' offers were left out (above).
    expect([...new Set(upstream.asked)]).toEqual([-1]);
    const { stats } = upstream.fake;
    expect(stats.unauthorized).toBe(0);
    expect(stats.logins).toBeGreaterThanOrEqual(1);
    // One login per object instance (the first and the fresh one), shared by its sources and their polls:
    // the Worker's front never searches, and no request makes sources of its own.
    expect(stats.logins).toBeLessThanOrEqual(2);
    // One all-airlines upstream search, asked and then polled (the first instance, then the fresh one).
    expect(stats.searches).toBeGreaterThanOrEqual(2);
    // No upstream detail reaches the client.
    for (const { text } of answers) {
      expect(text).not.toContain(ACCOUNT.password);
      expect(text).not.toContain(upstream.served.origin);
    }
  });

  it("a second agency asking the same route is answered from the shared objects (SHARED): the upstream is not asked again", async () => {
    const upstream = await startUpstream(300);
    const { server } = await start(upstreamBindings(upstream, { VOAR_API_KEYS: `acme:${API_KEY},other:${OTHER_KEY}` }));
    const query = { Origem: "CNF", Destino: "GIG", Ida: daysAhead(22), QuantidadePorPagina: 100 };
    const first = await consultar(server, query);
    expect(first.status, first.text.slice(0, 300)).toBe(200);
    const firstDone = (await pollToCompletion(server, first.body["Token"])).at(-1)!.body;
    expect(firstDone["TotalItens"]).toBeGreaterThan(0);
    const searchesBefore = upstream.fake.stats.searches;
    const askedBefore = upstream.asked.length;
    // Another tenant: another search object (its own identity), with no session of its own to the upstream's cache.
    const second = await consultar(server, query, OTHER_KEY);
    expect(second.status, second.text.slice(0, 300)).toBe(200);
    expect(second.body["Token"]).not.toBe(first.body["Token"]);
    const secondDone = (await pollToCompletion(server, second.body["Token"], 200, OTHER_KEY)).at(-1)!.body;
    expect(secondDone["TotalItens"]).toBe(firstDone["TotalItens"]);
    expect(upstream.asked.length).toBe(askedBefore);
    expect(upstream.fake.stats.searches).toBe(searchesBefore);
  });

  it("an airline one search found down is not asked by the next search's object until its cool-down ends (breakers in SHARED)", async () => {
    // Every search request of the upstream fails with 503 (its login works).
    const upstream = await startUpstream(200, [{ at: 1, through: "end", fault: { kind: "status", status: 503 } }]);
    const { server } = await start(upstreamBindings(upstream, { VOAR_API_KEYS: `acme:${API_KEY},other:${OTHER_KEY}` }));
    const first = await consultar(server, { Origem: "CNF", Destino: "GRU", Ida: daysAhead(23), QuantidadePorPagina: 100 });
    expect(first.status, first.text.slice(0, 300)).toBe(200);
    const failed = (await pollToCompletion(server, first.body["Token"], 502)).at(-1)!.body;
    expect(fontes(failed).map((f) => f.Estado)).toEqual(["falhou", "falhou"]);
    const asked = upstream.fake.stats.searches;
    // The same failures in a row opened the all-airlines search's breaker (3 in a row: the first attempt and its retries).
    expect(asked).toBeGreaterThanOrEqual(3);
    // Another agency, another route: another search object, whose sources have never failed themselves.
    const second = await consultar(server, { Origem: "BSB", Destino: "SSA", Ida: daysAhead(24), QuantidadePorPagina: 100 }, OTHER_KEY);
    expect(second.status, second.text.slice(0, 300)).toBe(200);
    const refused = (await pollToCompletion(server, second.body["Token"], 502, OTHER_KEY)).at(-1)!.body;
    expect(upstream.fake.stats.searches).toBe(asked);
    const sources = (refused["Progresso"] as { Fontes: { Estado: string; Erro?: string; Retentavel?: boolean }[] }).Fontes;
    for (const f of sources) expect(f).toMatchObject({ Estado: "falhou", Retentavel: true, Erro: expect.stringMatching(/indisponível/) });
  });

  it("Mode B goes to the upstream's OTA comparison (Companhia 1300); with VOAR_UPSTREAM_OTAS=false it is not asked", async () => {
    const upstream = await startUpstream(200);
    const withOtas = await start(upstreamBindings(upstream));
    const modeB = { Origem: "GRU", Destino: "LIS", Ida: daysAhead(30), Companhia: 1300, QuantidadePorPagina: 100 };
    const started = await consultar(withOtas.server, modeB);
    expect(started.status, started.text.slice(0, 300)).toBe(200);
    const done = (await pollToCompletion(withOtas.server, started.body["Token"])).at(-1)!.body;
    expect(fontes(done).map((f) => [f.Nome, f.Estado])).toEqual([["OTAs do fornecedor", "concluida"]]);
    expect(done["TotalItens"]).toBeGreaterThan(0);
    expect([...new Set(upstream.asked)]).toEqual([1300]);
    await withOtas.stop();

    const askedBefore = upstream.asked.length;
    const withoutOtas = await start(upstreamBindings(upstream, { VOAR_UPSTREAM_OTAS: "false" }));
    const none = await consultar(withoutOtas.server, { ...modeB, Ida: daysAhead(31) });
    // No source serves Mode B: the search completes at once, empty, and the upstream is not asked.
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ Success: true, Completed: true, TotalItens: 0 });
    expect(upstream.asked.length).toBe(askedBefore);
  });

  it("an upstream that refuses the login: the search ends as FALHA_FORNECEDOR, without the upstream's detail or the password", async () => {
    const upstream = await startUpstream(200);
    const { server } = await start(upstreamBindings(upstream, { VOAR_UPSTREAM_PASSWORD: "not-the-password-0000" }));
    const started = await consultar(server, { Origem: "CNF", Destino: "SDU", Ida: daysAhead(25), QuantidadePorPagina: 100 });
    expect(started.status, started.text.slice(0, 300)).toBe(200);
    const answers = await pollToCompletion(server, started.body["Token"], 502);
    const last = answers.at(-1)!.body;
    // Refused credentials are not retryable: the answer's Retentavel follows its sources.
    expect(last).toMatchObject({ Success: false, Completed: true, TotalItens: 0, Erro: { Codigo: "FALHA_FORNECEDOR", Retentavel: false } });
    expect(upstream.fake.stats.searches).toBe(0);
    expect(upstream.fake.stats.logins).toBeGreaterThan(0);
    for (const { text } of answers) {
      expect(text).not.toContain("not-the-password-0000");
      expect(text).not.toContain(upstream.served.origin);
      // The upstream's own refusal stays in the Worker's log.
      expect(text).not.toContain("invalid_grant");
    }
  });

  it("an upstream login without its password secret answers ERRO_INTERNO, not a stack trace, and asks the upstream nothing", async () => {
    const upstream = await startUpstream(200);
    const { VOAR_UPSTREAM_PASSWORD: _forgotten, ...bindings } = upstreamBindings(upstream);
    const { server } = await start(bindings);
    const { status, text, body } = await consultar(server, { Origem: "CNF", Destino: "GRU", Ida: daysAhead(20) });
    expect(status).toBe(500);
    expect(body).toMatchObject({ Success: false, Completed: true, Erro: { Codigo: "ERRO_INTERNO" } });
    expect(text).not.toContain(ACCOUNT.username);
    expect(upstream.fake.stats).toEqual({ logins: 0, searches: 0, unauthorized: 0 });
  });
});
