/**
 * A minimal service speaking our API, for the client's unit tests (the real one, @voar/hono-edge, is used
 * in the integration tier): `POST /api/ConsultaAereo/Consultar` (polling by `Token`) and, optionally,
 * `POST /api/ConsultaAereo/Stream` (SSE), over core's search and envelopes.
 */
import { Hono } from "hono";
import { ReplaySubject, type Observable } from "rxjs";
import { errorEnvelope, parseSearchRequest, queryKey, search, snapshotToEnvelope, type SearchSnapshot, type SearchSource } from "@voar/core";
import { airports } from "@voar/core/airports";

export interface MiniServiceOptions {
  readonly sources: readonly SearchSource[];
  readonly stream?: boolean;
  readonly nextPollMs?: number;
  /** Cut the SSE stream after this many events (a broken connection). */
  readonly breakStreamAfter?: number;
}

export const miniService = (o: MiniServiceOptions) => {
  const app = new Hono();
  const byId = new Map<string, { subject: ReplaySubject<SearchSnapshot>; latest?: SearchSnapshot }>();
  const ids = new Map<string, string>();
  let counter = 0;
  const stats = { consultar: 0, stream: 0 };

  const resolve = async (body: unknown) => {
    const parsed = parseSearchRequest(body, { airports, now: new Date() });
    if (parsed.kind === "invalid") return { error: errorEnvelope("REQUISICAO_INVALIDA", { requestId: "r", campos: parsed.campos }) };
    let id = parsed.kind === "poll" ? parsed.token : ids.get(queryKey(parsed.query));
    if (parsed.kind === "query" && id === undefined) {
      id = `busca-${++counter}`;
      ids.set(queryKey(parsed.query), id);
      const entry: { subject: ReplaySubject<SearchSnapshot>; latest?: SearchSnapshot } = { subject: new ReplaySubject<SearchSnapshot>(1) };
      byId.set(id, entry);
      search(parsed.query, o.sources).subscribe((s) => {
        entry.latest = s;
        entry.subject.next(s);
        if (s.completed) entry.subject.complete();
      });
    }
    const entry = id === undefined ? undefined : byId.get(id);
    if (!entry?.latest || id === undefined) return { error: errorEnvelope("REQUISICAO_INVALIDA", { requestId: "r", mensagem: "Busca desconhecida." }) };
    return { id, entry: entry as { subject: Observable<SearchSnapshot>; latest: SearchSnapshot }, page: parsed.page, pageSize: parsed.pageSize };
  };

  const authorized = (header: string | undefined) => header === "Bearer k";
  const envelope = (s: SearchSnapshot, id: string, page: number, pageSize: number) =>
    snapshotToEnvelope(s, { searchId: id, requestId: "r", page, pageSize, airports, nextPollMs: o.nextPollMs ?? 500 });

  app.post("/api/ConsultaAereo/Consultar", async (c) => {
    stats.consultar++;
    if (!authorized(c.req.header("authorization"))) {
      const e = errorEnvelope("NAO_AUTORIZADO", { requestId: "r" });
      return c.json(e.body, e.status);
    }
    const r = await resolve(await c.req.json());
    if ("error" in r) return c.json(r.error!.body, r.error!.status);
    const e = envelope(r.entry.latest, r.id, r.page, r.pageSize);
    return c.json(e.body, e.status);
  });

  if (o.stream !== false) {
    app.post("/api/ConsultaAereo/Stream", async (c) => {
      stats.stream++;
      const r = await resolve(await c.req.json());
      if ("error" in r) return c.json(r.error!.body, r.error!.status);
      const encoder = new TextEncoder();
      let sent = 0;
      let unsubscribe = () => undefined as void;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode("retry: 1000\n\n: keep-alive\n\n"));
          const sub = r.entry.subject.subscribe((s) => {
            if (o.breakStreamAfter !== undefined && sent >= o.breakStreamAfter) {
              sub.unsubscribe();
              controller.error(new TypeError("connection lost"));
              return;
            }
            sent++;
            controller.enqueue(encoder.encode(`id: ${s.version}\ndata: ${JSON.stringify(envelope(s, r.id, r.page, r.pageSize).body)}\n\n`));
            if (s.completed) controller.close();
          });
          unsubscribe = () => sub.unsubscribe();
        },
        cancel() {
          unsubscribe();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream; charset=utf-8" } });
    });
  }
  return { app, stats };
};
