import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemorySessionStore } from "../src/search/memory-session-store.js";
import type { SessionStore } from "../src/search/session-store.js";
import { answerOf, consultar, fastSources, NOW, OTHER_KEY, post, QUERY, testApp } from "./support/app.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

describe("polling by Token / LeaseId", () => {
  it("{ Token } and { LeaseId } answer the accumulated snapshot of the search, for the page asked", async () => {
    const { app } = testApp();
    const first = await consultar(app, QUERY);
    const id = first.body.Token as string;
    await vi.advanceTimersByTimeAsync(250);
    const byQuery = await consultar(app, { ...QUERY, NumeroPagina: 2, QuantidadePorPagina: 5 });
    const byToken = await consultar(app, { Token: id, NumeroPagina: 2, QuantidadePorPagina: 5 });
    const byLease = await consultar(app, { leaseid: id, NumeroPagina: 2, QuantidadePorPagina: 5 });
    for (const poll of [byToken, byLease]) {
      expect(poll.status).toBe(200);
      expect(poll.body).toMatchObject({ Token: id, Completed: true, TotalItens: byQuery.body.TotalItens, pagination: byQuery.body.pagination });
      expect(poll.body.Data).toEqual(byQuery.body.Data);
    }
  });

  it("repeated polls of one version share the written envelope but each gets its own RequestId", async () => {
    const { app } = testApp();
    const id = (await consultar(app, QUERY)).body.Token as string;
    await vi.advanceTimersByTimeAsync(250);
    const a = await consultar(app, { Token: id });
    const b = await consultar(app, { Token: id });
    expect(a.body.RequestId).not.toBe(b.body.RequestId);
    expect({ ...a.body, RequestId: "x" }).toEqual({ ...b.body, RequestId: "x" });
    const other = await consultar(app, { Token: id, NumeroPagina: 2, QuantidadePorPagina: 3 });
    expect(other.body.pagination).toMatchObject({ currentPage: 2, pageSize: 3 });
  });

  it("a poll's answer carries its request's id, its type and its tag as headers, and CORS headers when configured", async () => {
    for (const cors of [false, true]) {
      const { app } = testApp(cors ? { configInput: { cors: { origins: ["https://app.example"] } } } : {});
      const id = (await consultar(app, QUERY)).body.Token as string;
      await vi.advanceTimersByTimeAsync(250);
      const origin = cors ? { Origin: "https://app.example" } : {};
      const res = await post(app, "/api/ConsultaAereo/Consultar", { Token: id }, { "X-Request-Id": "client-poll-7", ...origin });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-request-id")).toBe("client-poll-7");
      expect(res.headers.get("content-type")).toBe("application/json; charset=UTF-8");
      expect(res.headers.get("etag")).toMatch(/^W\/"/);
      expect(((await res.json()) as { RequestId: string }).RequestId).toBe("client-poll-7");
      const notModified = await post(app, "/api/ConsultaAereo/Consultar", { Token: id }, { "If-None-Match": res.headers.get("etag")!, "X-Request-Id": "client-poll-8", ...origin });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get("x-request-id")).toBe("client-poll-8");
      for (const answer of [res, notModified]) {
        expect(answer.headers.get("access-control-allow-origin")).toBe(cors ? "https://app.example" : null);
        if (cors) expect(answer.headers.get("access-control-expose-headers")).toContain("ETag");
      }
    }
  });

  it("a poll while the search runs carries LeaseId in ExErro and Data[0], as existing clients expect", async () => {
    const { app } = testApp();
    const id = (await consultar(app, QUERY)).body.Token as string;
    await vi.advanceTimersByTimeAsync(120);
    const { body } = await consultar(app, { LeaseId: id });
    expect(body).toMatchObject({ Completed: false, Erro: null, ExErro: { Extensions: { LeaseId: id } } });
    expect(body.Data[0].LeaseId).toBe(id);
    expect(body.TotalItens).toBeGreaterThan(0);
  });

  it("a Token in the body wins over the query members (a poll never starts a search)", async () => {
    const { app } = testApp();
    const id = (await consultar(app, QUERY)).body.Token as string;
    const { body } = await consultar(app, { Token: id, Origem: "GIG", Destino: "SSA", Ida: "2026-04-01" });
    expect(body.Token).toBe(id);
  });

  it.each([
    [{ Token: "no-such-search" }, "Token"],
    [{ LeaseId: "no-such-search" }, "LeaseId"],
    [{ token: "no-such-search", LeaseId: "x" }, "Token"],
  ])("an unknown id (%j) is a 404 BUSCA_EXPIRADA naming %s, never REQUISICAO_INVALIDA: the poll is well formed", async (body, field) => {
    const { app } = testApp();
    const res = await consultar(app, body);
    expect(res.status).toBe(404);
    expect(res.body.Erro).toMatchObject({ Codigo: "BUSCA_EXPIRADA", Retentavel: false, Campos: [{ Campo: field }] });
    expect(res.body.MensagemErro).toMatch(/nova busca/);
  });

  it("a blank or non-string Token is a 400 naming it", async () => {
    const { app } = testApp();
    for (const Token of [42, "   ", []]) {
      const res = await consultar(app, { Token });
      if (Token === "   ") {
        // Blank counts as absent: the body is then a query without its members.
        expect(res.body.Erro.Campos.map((c) => c.Campo)).toContain("Ida");
      } else {
        expect(res.body.Erro.Campos).toEqual([expect.objectContaining({ Campo: "Token" })]);
      }
      expect(res.status).toBe(400);
    }
  });

  it("another tenant cannot poll a search: it answers as unknown", async () => {
    const { app } = testApp();
    const id = (await consultar(app, QUERY)).body.Token as string;
    const res = await consultar(app, { Token: id }, { Authorization: `Bearer ${OTHER_KEY}` });
    expect(res.status).toBe(404);
    expect(res.body.Erro.Campos[0]?.Campo).toBe("Token");
  });

  it("once a completed search outlives its TTL its id is unknown", async () => {
    const { app } = testApp({ configInput: { search: { ttlMs: 60_000 } } });
    const id = (await consultar(app, QUERY)).body.Token as string;
    await vi.advanceTimersByTimeAsync(250);
    expect((await consultar(app, { Token: id })).status).toBe(200);
    await vi.advanceTimersByTimeAsync(60_000);
    const gone = await consultar(app, { Token: id });
    expect([gone.status, gone.body.Erro.Codigo, gone.body.Erro.Retentavel]).toEqual([404, "BUSCA_EXPIRADA", false]);
  });

  it("polls of a search this instance runs read the engine's snapshot: the store's change log is not replayed", async () => {
    const inner = createMemorySessionStore({ clock: { now: () => Date.now() }, maxSessions: 10, ttlMs: 600_000 });
    let replays = 0;
    const store: SessionStore = { ...inner, changes: (id, after) => (replays++, inner.changes(id, after)) };
    const { app } = testApp({ store });
    const id = (await consultar(app, QUERY)).body.Token as string;
    await vi.advanceTimersByTimeAsync(1_000);
    const polls = await Promise.all([consultar(app, { Token: id }), consultar(app, { Token: id, NumeroPagina: 2 })]);
    expect(polls.map((p) => p.body.Completed)).toEqual([true, true]);
    expect(polls[0]!.body.TotalItens).toBeGreaterThan(0);
    expect(replays).toBe(0);
    // Another instance on the same store has no engine for it: it rebuilds the snapshot from the log, to the same answer.
    const other = testApp({ store });
    const rebuilt = await consultar(other.app, { Token: id });
    expect(replays).toBeGreaterThan(0);
    expect({ ...rebuilt.body, RequestId: "x" }).toEqual({ ...polls[0]!.body, RequestId: "x" });
  });

  describe("conditional polls (ETag / If-None-Match)", () => {
    it("a poll naming the current ETag gets 304 without a body; a new version, page or view gets 200 with a new tag", async () => {
      const { app } = testApp({ sources: fastSources({ latencyMs: (id) => 100 + 50 * id.length, batches: 3 }) });
      const id = (await consultar(app, QUERY)).body.Token as string;
      await vi.advanceTimersByTimeAsync(120);
      const first = await post(app, "/api/ConsultaAereo/Consultar", { Token: id });
      const tag = first.headers.get("etag")!;
      const full = (await first.arrayBuffer()).byteLength;
      expect(tag).toMatch(/^W\/"/);
      expect(tag).not.toContain((await consultar(app, { Token: id })).body.RequestId);

      const unchanged = await post(app, "/api/ConsultaAereo/Consultar", { Token: id }, { "If-None-Match": tag });
      expect(unchanged.status).toBe(304);
      expect(unchanged.headers.get("etag")).toBe(tag);
      expect(unchanged.headers.get("x-request-id")).toBeTruthy();
      const empty = (await unchanged.arrayBuffer()).byteLength;
      expect(empty).toBe(0);
      expect(empty + unchanged.headers.get("etag")!.length).toBeLessThan(full / 10);

      // Another page, or another order, is another answer.
      expect((await post(app, "/api/ConsultaAereo/Consultar", { Token: id, NumeroPagina: 2 }, { "If-None-Match": tag })).status).toBe(200);
      expect((await post(app, "/api/ConsultaAereo/Consultar", { Token: id, Ordenacao: "duracao" }, { "If-None-Match": tag })).status).toBe(200);

      // The search moves on: the same tag now gets the new version, with its own tag.
      await vi.advanceTimersByTimeAsync(1_000);
      const moved = await post(app, "/api/ConsultaAereo/Consultar", { Token: id }, { "If-None-Match": `"x", ${tag}` });
      expect(moved.status).toBe(200);
      expect(moved.headers.get("etag")).not.toBe(tag);
      expect((await answerOf(moved)).Completed).toBe(true);
      const done = await post(app, "/api/ConsultaAereo/Consultar", { Token: id }, { "If-None-Match": moved.headers.get("etag")! });
      expect(done.status).toBe(304);
    });

    it("repeating the query with If-None-Match is conditional too; without the header every poll gets the full answer", async () => {
      const { app } = testApp();
      const first = await post(app, "/api/ConsultaAereo/Consultar", QUERY);
      await first.arrayBuffer();
      await vi.advanceTimersByTimeAsync(1_000);
      const done = await post(app, "/api/ConsultaAereo/Consultar", QUERY);
      const tag = done.headers.get("etag")!;
      expect((await answerOf(done)).Completed).toBe(true);
      expect((await post(app, "/api/ConsultaAereo/Consultar", QUERY, { "If-None-Match": tag })).status).toBe(304);
      const plain = await post(app, "/api/ConsultaAereo/Consultar", QUERY);
      expect(plain.status).toBe(200);
      expect((await answerOf(plain)).Completed).toBe(true);
    });

    it("a legacy client keeps its answers (200 for everything, errors included); a 304 only if it sends If-None-Match", async () => {
      const legacyKey = "legacy-api-key-0123456789";
      const { app } = testApp({ configInput: { apiKeys: [{ name: "old", key: legacyKey, compat: "legacy" }] } });
      const auth = { Authorization: `Bearer ${legacyKey}` };
      const id = (await consultar(app, QUERY, auth)).body.Token as string;
      await vi.advanceTimersByTimeAsync(1_000);
      const a = await post(app, "/api/ConsultaAereo/Consultar", { Token: id }, auth);
      const b = await post(app, "/api/ConsultaAereo/Consultar", { Token: id }, auth);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect((await answerOf(b)).Completed).toBe(true);
      const expired = await post(app, "/api/ConsultaAereo/Consultar", { Token: "no-such-search" }, auth);
      expect(expired.status).toBe(200);
      expect(expired.headers.get("x-voar-status")).toBe("404");
      const asked = await post(app, "/api/ConsultaAereo/Consultar", { Token: id }, { ...auth, "If-None-Match": b.headers.get("etag")! });
      expect(asked.status).toBe(304);
      expect(asked.headers.get("x-voar-status")).toBeNull();
    });

    it("an error answer has no ETag", async () => {
      const { app } = testApp();
      const res = await post(app, "/api/ConsultaAereo/Consultar", { Token: "no-such-search" }, { "If-None-Match": 'W/"no-such-search.0.x"' });
      expect(res.status).toBe(404);
      expect(res.headers.get("etag")).toBeNull();
    });
  });
});
