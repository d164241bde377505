import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyCalendarChange, CalendarChangeSchema, type CalendarEnvelope } from "@voar/core";
import { afterEach, describe, expect, it } from "vitest";
import { daysAhead, type Envelope } from "../contract/contract-target.js";
import { parseSse } from "../support/sse.js";
import { startWorkerd, type WorkerdServer } from "./support/workerd-miniflare.js";

// Searches on Cloudflare Workers live in Durable Objects (and so do price calendars, each in the object of
// its identity): the Worker of wrangler.toml in miniflare 3, with the objects' storage in a temporary folder,
// so a new miniflare instance (a new isolate and new object instances, as after an eviction or a deploy)
// serves what the previous one started.

const ACME = "acme-api-key-0123456789";
const OTHER = "other-api-key-0123456789";
const bindings = (latencyMs: number) => ({
  VOAR_API_KEYS: `acme:${ACME},other:${OTHER}`,
  VOAR_RATE_LIMIT_CAPACITY: "100000",
  VOAR_RATE_LIMIT_REFILL_PER_SECOND: "100000",
  VOAR_SIMULATOR_LATENCY_MS: String(latencyMs),
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let running: WorkerdServer[] = [];
let folders: string[] = [];
const start = async (latencyMs: number, persist?: string) => {
  const server = await startWorkerd(bindings(latencyMs), persist);
  running.push(server);
  return server;
};
const stop = async (server: WorkerdServer) => {
  running = running.filter((s) => s !== server);
  await server.mf.dispose();
};
const storageFolder = async () => {
  const folder = await mkdtemp(path.join(tmpdir(), "voar-do-"));
  folders.push(folder);
  return folder;
};
afterEach(async () => {
  await Promise.all(running.map((s) => s.mf.dispose()));
  await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })));
  running = [];
  folders = [];
});

const post = async (server: WorkerdServer, route: "Consultar" | "Stream" | "Calendario" | "Calendario/Stream", body: unknown, key = ACME) =>
  fetch(`${server.baseUrl}/api/ConsultaAereo/${route}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
const consultar = async (server: WorkerdServer, body: unknown, key = ACME) => {
  const res = await post(server, "Consultar", body, key);
  return { status: res.status, body: (await res.json()) as Envelope };
};
/** Polls by id until complete (bounded: 300 polls, 100 ms apart); every answer. */
const pollToCompletion = async (server: WorkerdServer, token: unknown) => {
  const answers: Envelope[] = [];
  for (let i = 0; i < 300; i++) {
    const { status, body } = await consultar(server, { LeaseId: token, QuantidadePorPagina: 100 });
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
    answers.push(body);
    if (body["Completed"] === true) return answers;
    await sleep(100);
  }
  throw new Error("the search did not complete within 300 polls");
};
const versionOf = (body: Envelope) => (body["Progresso"] as { Versao: number }).Versao;
const sourcesDone = (body: Envelope) => (body["Progresso"] as { FontesConcluidas: number; FontesTotal: number });
const rates = (body: Envelope): string[] =>
  (body["Data"] as { flights: { segments: { rateToken: string }[] }[] }[])[0]!.flights.flatMap((f) => f.segments.map((s) => s.rateToken));

describe("workerd with Durable Objects (wrangler.toml in miniflare 3)", () => {
  it("a search started on one instance is polled to completion from a fresh instance on the same storage", async () => {
    const folder = await storageFolder();
    // Slow sources (2 s): the first instance is gone long before any source answers.
    const first = await start(2_000, folder);
    const query = { Origem: "CNF", Destino: "GRU", Ida: daysAhead(20), QuantidadePorPagina: 100 };
    const started = await consultar(first, query);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ Success: true, Completed: false });
    const token = started.body["Token"];
    expect(token).toMatch(/^[0-9a-f]{64}\.[0-9a-f-]{36}$/);
    await stop(first);

    const fresh = await start(2_000, folder);
    const answers = await pollToCompletion(fresh, token);
    // The fresh instance found the search unfinished and ran it on: it did not answer from nowhere.
    expect(answers[0]!["Completed"]).toBe(false);
    const last = answers.at(-1)!;
    expect(last).toMatchObject({ Success: true, Completed: true, HasResult: true, Token: token });
    expect(sourcesDone(last).FontesConcluidas).toBe(sourcesDone(last).FontesTotal);
    expect(rates(last).length).toBeGreaterThan(0);
    // The same body on the fresh instance joins that search rather than starting another.
    expect((await consultar(fresh, query)).body["Token"]).toBe(token);
  });

  it("a completed search comes back from storage unchanged on a fresh instance", async () => {
    const folder = await storageFolder();
    const first = await start(300, folder);
    const query = { Origem: "CNF", Destino: "SDU", Ida: daysAhead(25), QuantidadePorPagina: 100 };
    const token = (await consultar(first, query)).body["Token"];
    const done = (await pollToCompletion(first, token)).at(-1)!;
    await stop(first);

    const fresh = await start(300, folder);
    const again = await consultar(fresh, { Token: token, QuantidadePorPagina: 100 });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ Completed: true, Token: token, TotalItens: done["TotalItens"] });
    expect(versionOf(again.body)).toBe(versionOf(done));
    expect(rates(again.body)).toEqual(rates(done));
  });

  it("identical bodies share one search, also when sent at once; another tenant gets its own and cannot poll this one", async () => {
    const server = await start(300);
    const query = { Origem: "BSB", Destino: "GRU", Ida: daysAhead(30) };
    const answers = await Promise.all(Array.from({ length: 6 }, () => consultar(server, query)));
    const tokens = new Set(answers.map((a) => a.body["Token"]));
    expect(tokens.size).toBe(1);
    const [token] = [...tokens];
    // Paging is not part of a search's identity.
    expect((await consultar(server, { ...query, NumeroPagina: 2, QuantidadePorPagina: 5 })).body["Token"]).toBe(token);
    const other = await consultar(server, query, OTHER);
    expect(other.status).toBe(200);
    expect(other.body["Token"]).not.toBe(token);
    const foreign = await consultar(server, { Token: token }, OTHER);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ Erro: { Codigo: "BUSCA_EXPIRADA", Campos: [{ Campo: "Token" }] } });
  });

  it("an id that names no search object is a 404 BUSCA_EXPIRADA naming the field it came in", async () => {
    const server = await start(300);
    for (const leaseId of ["not-a-search-id", `${"ab".repeat(32)}.00000000-0000-4000-8000-000000000000`]) {
      const { status, body } = await consultar(server, { LeaseId: leaseId });
      expect(status).toBe(404);
      expect(body).toMatchObject({ Success: false, Erro: { Codigo: "BUSCA_EXPIRADA", Campos: [{ Campo: "LeaseId" }] } });
    }
  });

  it("the SSE stream comes from the search's object: progressive snapshots of the polled search, to completion", async () => {
    const server = await start(500);
    const query = { Origem: "CNF", Destino: "GIG", Ida: daysAhead(22), QuantidadePorPagina: 100 };
    const token = (await consultar(server, query)).body["Token"];
    const res = await post(server, "Stream", { LeaseId: token, QuantidadePorPagina: 100 });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = parseSse(await res.text()).filter((e) => e.data !== undefined);
    const bodies = events.map((e) => JSON.parse(e.data!) as Envelope);
    expect(bodies.length).toBeGreaterThan(2);
    expect(bodies.every((b) => b["Token"] === token)).toBe(true);
    const versions = events.map((e) => Number(e.id));
    expect(versions).toEqual(bodies.map(versionOf));
    for (let i = 1; i < versions.length; i++) expect(versions[i]!).toBeGreaterThan(versions[i - 1]!);
    expect(bodies.slice(0, -1).every((b) => b["Completed"] === false)).toBe(true);
    expect(bodies.at(-1)).toMatchObject({ Completed: true, HasResult: true });
    // What the stream ended with is what a poll answers.
    const polled = await consultar(server, { Token: token, QuantidadePorPagina: 100 });
    expect(rates(polled.body)).toEqual(rates(bodies.at(-1)!));
    // A stream started by a body joins the same search.
    const byBody = parseSse(await (await post(server, "Stream", query)).text()).filter((e) => e.data !== undefined);
    expect((JSON.parse(byBody.at(-1)!.data!) as Envelope)["Token"]).toBe(token);
  });

  it("a price calendar lives in a Durable Object: started on one instance, finished from a fresh one on the same storage; its days open, its stream is light", async () => {
    const folder = await storageFolder();
    const first = await start(1_500, folder);
    const asked = { Origem: "CNF", Destino: "GRU", Ida: daysAhead(40), DiasFlexiveis: 1 };
    const started = await post(first, "Calendario", asked);
    expect(started.status).toBe(200);
    const calendar = (await started.json()) as CalendarEnvelope;
    expect(calendar).toMatchObject({ Success: true, Completed: false, TotalItens: 3 });
    expect(calendar.Token).toMatch(/^[0-9a-f]{64}\.[0-9a-f-]{36}$/);
    // The days' searches run in the calendar's object; the instance is gone before any airline answers.
    await stop(first);

    const fresh = await start(1_500, folder);
    let done: CalendarEnvelope | undefined;
    for (let i = 0; i < 100 && !done?.Completed; i++) {
      if (i > 0) await sleep(200);
      const res = await post(fresh, "Calendario", { Token: calendar.Token });
      expect(res.status).toBe(200);
      done = (await res.json()) as CalendarEnvelope;
    }
    expect(done).toMatchObject({ Completed: true, Token: calendar.Token });
    expect(done!.Data.map((d) => d.Data)).toEqual(calendar.Data.map((d) => d.Data));
    for (const day of done!.Data) {
      expect(day.MenorValor).not.toBeNull();
      // Each day's search is the calendar object's: its Token routes back there.
      const search = await consultar(fresh, { Token: day.TokenBusca, QuantidadePorPagina: 100 });
      expect(search.status).toBe(200);
      expect(search.body).toMatchObject({ Completed: true, Token: day.TokenBusca });
    }
    // The same body joins it (the object of the calendar's identity); another tenant cannot poll it.
    expect(((await (await post(fresh, "Calendario", asked)).json()) as CalendarEnvelope).Token).toBe(calendar.Token);
    expect((await post(fresh, "Calendario", { Token: calendar.Token }, OTHER)).status).toBe(404);

    // A new calendar's stream: the whole calendar first and last, only the days that changed between.
    const res = await post(fresh, "Calendario/Stream", { ...asked, Ida: daysAhead(45) });
    expect(res.status).toBe(200);
    const events = parseSse(await res.text()).filter((e) => e.data !== undefined);
    expect(events[0]!.event).toBeUndefined();
    expect(events.at(-1)!.event).toBeUndefined();
    expect(events.some((e) => e.event === "dias")).toBe(true);
    let followed = JSON.parse(events[0]!.data!) as CalendarEnvelope;
    for (const e of events.slice(1)) followed = e.event === "dias" ? applyCalendarChange(followed, CalendarChangeSchema.parse(JSON.parse(e.data!))) : (JSON.parse(e.data!) as CalendarEnvelope);
    expect(followed).toMatchObject({ Completed: true });
    expect(followed.Data.every((d) => d.MenorValor !== null)).toBe(true);
  });

  it("a page of another origin polls the search's object conditionally: If-None-Match allowed, ETag readable, 304 answered", async () => {
    const server = await startWorkerd({ ...bindings(50), VOAR_CORS_ORIGINS: "https://app.example" });
    running.push(server);
    const headers = { Authorization: `Bearer ${ACME}`, "Content-Type": "application/json", Origin: "https://app.example" };
    const preflight = await fetch(`${server.baseUrl}/api/ConsultaAereo/Consultar`, {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type, if-none-match" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("If-None-Match");
    const started = await fetch(`${server.baseUrl}/api/ConsultaAereo/Consultar`, { method: "POST", headers, body: JSON.stringify({ Origem: "CNF", Destino: "GRU", Ida: daysAhead(20) }) });
    const token = ((await started.json()) as Envelope)["Token"];
    await pollToCompletion(server, token);
    const poll = JSON.stringify({ Token: token });
    const full = await fetch(`${server.baseUrl}/api/ConsultaAereo/Consultar`, { method: "POST", headers, body: poll });
    expect(full.status).toBe(200);
    expect(full.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(full.headers.get("access-control-expose-headers")).toContain("ETag");
    const tag = full.headers.get("etag");
    expect(tag).toMatch(/^W\//);
    await full.arrayBuffer();
    const unchanged = await fetch(`${server.baseUrl}/api/ConsultaAereo/Consultar`, { method: "POST", headers: { ...headers, "If-None-Match": tag! }, body: poll });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("access-control-allow-origin")).toBe("https://app.example");
  });

  it("the Pagante switch and the rate limits live in the shared objects: a fresh instance on the same storage has both", async () => {
    const folder = await storageFolder();
    const admin = "an-admin-key-0123456789";
    const settings = { ...bindings(300), VOAR_NAMED_ADMIN_KEYS: `ops:${admin}`, VOAR_RATE_LIMIT_CAPACITY: "3", VOAR_RATE_LIMIT_REFILL_PER_SECOND: "0.01" };
    const first = await startWorkerd(settings, folder);
    running.push(first);
    const put = await fetch(`${first.baseUrl}/api/admin/pagante`, { method: "PUT", headers: { "X-Admin-Key": admin, "Content-Type": "application/json" }, body: JSON.stringify({ IdCia: 2, Pagante: false }) });
    expect(put.status).toBe(200);
    const query = { Origem: "CNF", Destino: "GRU", Ida: daysAhead(20) };
    for (let i = 0; i < 3; i++) expect((await consultar(first, query)).status).toBe(200);
    await stop(first);

    const fresh = await startWorkerd(settings, folder);
    running.push(fresh);
    const list = (await (await fetch(`${fresh.baseUrl}/api/admin/pagante`, { headers: { "X-Admin-Key": admin } })).json()) as { Pagante: { IdCia: number; Pagante: boolean }[] };
    expect(list.Pagante.find((p) => p.IdCia === 2)?.Pagante).toBe(false);
    // The tenant's budget was spent on the first instance: the fresh one refuses the fourth request.
    const refused = await consultar(fresh, query);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ Erro: { Codigo: "LIMITE_EXCEDIDO" } });
  });

  it("a deployment that sets agencies without a token secret answers ERRO_INTERNO, not a stack trace", async () => {
    const server = await startWorkerd({ ...bindings(300), VOAR_AGENCIES: "agencia1:s3nha-da-agencia" });
    running.push(server);
    const res = await post(server, "Consultar", { Origem: "CNF", Destino: "GRU", Ida: daysAhead(20) });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ Success: false, Completed: true, Erro: { Codigo: "ERRO_INTERNO" } });
  });

  it("a token issued by the Worker (POST /Token) is accepted by the search's object, searches and polls", async () => {
    const server = await startWorkerd({ ...bindings(300), VOAR_AGENCIES: "agencia1:s3nha-da-agencia", VOAR_TOKEN_SECRET: "a-token-signing-secret-of-32-chars-at-least" });
    running.push(server);
    const login = await fetch(`${server.baseUrl}/api/Token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ grant_type: "password", username: "agencia1", password: "s3nha-da-agencia" }),
    });
    expect(login.status).toBe(200);
    const { access_token: token } = (await login.json()) as { access_token: string };
    const started = await consultar(server, { Origem: "CNF", Destino: "GRU", Ida: daysAhead(20) }, token);
    expect(started.status).toBe(200);
    const polled = await consultar(server, { Token: started.body["Token"] }, token);
    expect(polled.status).toBe(200);
    expect(polled.body["Token"]).toBe(started.body["Token"]);
  });
});
