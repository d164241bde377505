import { CalendarEnvelopeSchema, type CalendarEnvelope } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fastSources, NOW, post, testApp } from "../support/app.js";
import { readStream } from "../support/sse.js";
import { calendario, completedCalendar } from "./support.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const STREAM = "/api/ConsultaAereo/Calendario/Stream";
const ASKED = { Origem: "CNF", Destino: "SDU", Ida: "2026-03-20", DiasFlexiveis: 2 } as const;

describe("POST /ConsultaAereo/Calendario/Stream (SSE)", () => {
  it("sends the calendar as its days fill in, ids growing, the last event Completed, as polling ends", async () => {
    const { app } = testApp({ sources: fastSources({ latencyMs: 400, batches: 2 }) });
    const res = await post(app, STREAM, ASKED);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const events = await readStream(res);
    expect(events[0]).toEqual({ retry: "1000" });
    const data = events.filter((e) => e.data !== undefined);
    const envelopes = data.map((e) => CalendarEnvelopeSchema.parse(JSON.parse(e.data!)) as CalendarEnvelope);
    const ids = data.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(envelopes.map((e) => e.Progresso.Versao)).toEqual(ids);
    expect(envelopes.at(-1)).toMatchObject({ Completed: true });
    expect(envelopes.slice(0, -1).every((e) => !e.Completed)).toBe(true);
    // Days fill in one after another: priced days only grow in number.
    const priced = envelopes.map((e) => e.Data.filter((d) => d.MenorValor !== null).length);
    expect(priced).toEqual([...priced].sort((a, b) => a - b));
    expect(priced.at(-1)).toBe(5);
    // The last event is what a poll answers.
    const polled = await completedCalendar(app, envelopes[0]!.Token);
    expect({ ...polled.body, RequestId: "" }).toEqual({ ...envelopes.at(-1)!, RequestId: "" });
  });

  it("a resume at the completed version ends at once; a bad request answers its envelope before any stream", async () => {
    const { app } = testApp();
    const token = (await calendario(app, ASKED)).body.Token;
    const done = await completedCalendar(app, token);
    const resumed = await post(app, STREAM, { Token: token }, { "Last-Event-ID": String(done.body.Progresso.Versao) });
    expect((await readStream(resumed)).filter((e) => e.data !== undefined)).toEqual([]);
    const bad = await post(app, STREAM, { Origem: "CNF", Destino: "SDU", Ida: "2026-03-20" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { Erro: { Campos: { Campo: string }[] } }).Erro.Campos[0]!.Campo).toBe("DiasFlexiveis");
  });
});
