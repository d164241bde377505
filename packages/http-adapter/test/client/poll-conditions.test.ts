import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createClient, type Envelope, type FetchLike } from "../../src/fetch.js";

const request = { Origem: "CNF", Destino: "SDU", Ida: "2026-09-15" };

/** What the scripted server saw of one request. */
interface Seen {
  readonly at: number;
  readonly body: Record<string, unknown>;
  readonly ifNoneMatch: string | null;
}

/** An answer of the scripted server. */
interface Scripted {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

const envelope = (token: string, completed: boolean, total = 0) => ({ Success: true, Completed: completed, Token: token, TotalItens: total, Progresso: { ProximaConsultaMs: 500 } });
const expired = { Success: false, Completed: true, Erro: { Codigo: "BUSCA_EXPIRADA", Retentavel: false }, MensagemErro: "A busca expirou." };

/** A server that answers the scripted answers in order, and records every request. */
const scripted = (answers: readonly Scripted[]) => {
  const seen: Seen[] = [];
  const started = Date.now();
  const fetch: FetchLike = async (_input, init) => {
    const headers = new Headers(init?.headers);
    seen.push({ at: Date.now() - started, body: JSON.parse(String(init?.body)) as Record<string, unknown>, ifNoneMatch: headers.get("if-none-match") });
    const next = answers[seen.length - 1];
    if (!next) throw new Error(`unexpected request #${seen.length}`);
    return new Response(next.body === undefined ? null : JSON.stringify(next.body), { status: next.status, headers: next.headers ?? {} });
  };
  return { fetch, seen };
};

/** Runs a search to its end while moving virtual time; resolves what it yielded, or the error it ended with. */
const run = async (fetch: FetchLike, body: Record<string, unknown> = request) => {
  const client = createClient({ baseUrl: "http://voar.test/api", token: "k", transport: "poll", fetch });
  const got: Envelope[] = [];
  let error: unknown;
  let done = false;
  void (async () => {
    try {
      for await (const e of client.search(body as typeof request)) got.push(e);
    } catch (e) {
      error = e;
    }
    done = true;
  })();
  for (let t = 0; t < 60_000 && !done; t += 100) await vi.advanceTimersByTimeAsync(100);
  return { got, error };
};

describe("the client's polling", () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.parse("2026-09-01T12:00:00Z") }));
  afterEach(() => vi.useRealTimers());

  it("sends the ETag it holds in If-None-Match, and yields nothing for a 304 (the search did not change)", async () => {
    const server = scripted([
      { status: 200, body: envelope("t1", false, 3), headers: { etag: 'W/"t1.1.a"' } },
      { status: 304, headers: { etag: 'W/"t1.1.a"' } },
      { status: 304, headers: { etag: 'W/"t1.1.a"' } },
      { status: 200, body: envelope("t1", true, 9), headers: { etag: 'W/"t1.2.a"' } },
    ]);
    const { got, error } = await run(server.fetch);
    expect(error).toBeUndefined();
    expect(got.map((e) => e.TotalItens)).toEqual([3, 9]);
    expect(server.seen.map((s) => s.ifNoneMatch)).toEqual([null, 'W/"t1.1.a"', 'W/"t1.1.a"', 'W/"t1.1.a"']);
    expect(server.seen.slice(1).map((s) => s.body)).toEqual([{ Token: "t1" }, { Token: "t1" }, { Token: "t1" }]);
    // A 304 keeps the server's pace.
    expect(server.seen.map((s) => s.at)).toEqual([0, 500, 1000, 1500]);
  });

  it("starts the search again with the query when a poll answers 404 BUSCA_EXPIRADA", async () => {
    const server = scripted([
      { status: 200, body: envelope("t1", false, 3), headers: { etag: 'W/"t1.1.a"' } },
      { status: 404, body: expired },
      { status: 200, body: envelope("t2", false, 1) },
      { status: 200, body: envelope("t2", true, 8) },
    ]);
    const { got, error } = await run(server.fetch);
    expect(error).toBeUndefined();
    expect(server.seen.map((s) => s.body)).toEqual([request, { Token: "t1" }, request, { Token: "t2" }]);
    // The new search is asked afresh: the old search's tag is not sent.
    expect(server.seen[2]!.ifNoneMatch).toBeNull();
    expect(got.map((e) => e.Token)).toEqual(["t1", "t2", "t2"]);
    expect(got.at(-1)!.Completed).toBe(true);
  });

  it("a search followed by its Token alone cannot be started again: a clear error", async () => {
    const server = scripted([
      { status: 200, body: envelope("t1", false, 3) },
      { status: 404, body: expired },
    ]);
    const { error } = await run(server.fetch, { Token: "t1" });
    expect(error).toMatchObject({ _tag: "BusinessError", message: expect.stringMatching(/expirou.*Envie a consulta/) });
  });

  it("waits Retry-After on 429 and 503, then goes on", async () => {
    const server = scripted([
      { status: 200, body: envelope("t1", false, 3) },
      { status: 429, body: { Success: false, MensagemErro: "Devagar." }, headers: { "retry-after": "3" } },
      { status: 503, body: { Success: false, MensagemErro: "Indisponível." }, headers: { "retry-after": "2" } },
      { status: 200, body: envelope("t1", true, 9) },
    ]);
    const { got, error } = await run(server.fetch);
    expect(error).toBeUndefined();
    expect(server.seen.map((s) => s.at)).toEqual([0, 500, 3500, 5500]);
    expect(got.at(-1)!.Completed).toBe(true);
  });

  it("gives up with RateLimited after a few waits in a row", async () => {
    const limited: Scripted = { status: 429, body: { Success: false, MensagemErro: "Devagar." }, headers: { "retry-after": "1" } };
    const server = scripted([limited, limited, limited, limited, limited, limited]);
    const { error } = await run(server.fetch);
    expect(error).toMatchObject({ _tag: "RateLimited", retryAfterMs: 1000 });
    expect(server.seen).toHaveLength(6);
  });
});
