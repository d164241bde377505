import { applyCalendarChange, CalendarChangeSchema, CalendarEnvelopeSchema, type CalendarEnvelope, type SearchQuery } from "@voar/core";
import { hashText } from "../../src/http/entity-tag.js";
import { createMemorySessionStore } from "../../src/search/memory-session-store.js";
import type { SessionStore } from "../../src/search/session-store.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fastSources, NOW, post, testApp } from "../support/app.js";
import { parseSse, readStream, settle, type SseEvent } from "../support/sse.js";
import { calendario, completedCalendar } from "./support.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const STREAM = "/api/ConsultaAereo/Calendario/Stream";
const ASKED = { Origem: "CNF", Destino: "SDU", Ida: "2026-03-20", DiasFlexiveis: 2 } as const;

/** The stream's events as a client reads them: whole answers (unnamed events) and changes (`event: dias`), applied in turn. */
const follow = (events: readonly SseEvent[]) => {
  const data = events.filter((e) => e.data !== undefined);
  let calendar: CalendarEnvelope | undefined;
  const states: CalendarEnvelope[] = [];
  for (const e of data) {
    if (e.event === "dias") {
      expect(calendar).toBeDefined();
      const change = CalendarChangeSchema.parse(JSON.parse(e.data!));
      expect(change.Data.length).toBeGreaterThan(0);
      // Only days that changed: none is what the client already has.
      for (const day of change.Data) expect(calendar!.Data.find((d) => d.Data === day.Data && d.Volta === day.Volta)).not.toEqual(day);
      calendar = applyCalendarChange(calendar!, change);
    } else calendar = CalendarEnvelopeSchema.parse(JSON.parse(e.data!)) as CalendarEnvelope;
    states.push(calendar);
  }
  return { data, states, whole: data.filter((e) => e.event === undefined), changes: data.filter((e) => e.event === "dias") };
};

describe("POST /ConsultaAereo/Calendario/Stream (SSE)", () => {
  it("sends the whole calendar first and last, and between them only the days that changed; applied in turn they are what polling answers", async () => {
    const { app } = testApp({ sources: fastSources({ latencyMs: 400, batches: 2 }) });
    const res = await post(app, STREAM, ASKED);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const events = await readStream(res);
    expect(events[0]).toEqual({ retry: "1000" });
    const { data, states, whole, changes } = follow(events);
    const ids = data.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(states.map((e) => e.Progresso.Versao)).toEqual(ids);
    // The whole answer on connecting and at the end; every event between them a change of a few days.
    expect(whole).toHaveLength(2);
    expect(data[0]!.event).toBeUndefined();
    expect(data.at(-1)!.event).toBeUndefined();
    expect(changes.length).toBeGreaterThan(0);
    expect(states.at(-1)).toMatchObject({ Completed: true });
    expect(states.slice(0, -1).every((e) => !e.Completed)).toBe(true);
    // Days fill in as their searches answer: priced days only grow in number.
    const priced = states.map((e) => e.Data.filter((d) => d.MenorValor !== null).length);
    expect(priced).toEqual([...priced].sort((a, b) => a - b));
    expect(priced.at(-1)).toBe(5);
    // The calendar as the changes built it, at each step, is the whole answer of the end; and what a poll answers.
    const polled = await completedCalendar(app, states[0]!.Token);
    expect({ ...polled.body, RequestId: "" }).toEqual({ ...states.at(-1)!, RequestId: "" });
    expect({ ...polled.body, RequestId: "" }).toEqual({ ...(JSON.parse(data.at(-1)!.data!) as CalendarEnvelope), RequestId: "" });
  });

  it("a ±3 calendar's stream: at most 60 KB, against the whole calendar at every version", async () => {
    // Each airline's time spread from 0.3 to 2.5 s, by airline and day: days fill in apart, as they do on an upstream.
    const spread = (sourceId: string, q: SearchQuery) => 300 + (parseInt(hashText(`${sourceId}|${q.departureDate}`), 36) % 2_200);
    const { app } = testApp({ sources: fastSources({ latencyMs: spread, batches: 2 }) });
    const res = await post(app, STREAM, { ...ASKED, DiasFlexiveis: 3 });
    const text = await settle(res.text());
    const { data, states } = follow(parseSse(text));
    expect(states.at(-1)).toMatchObject({ Completed: true });
    const bytes = new TextEncoder().encode(text).length;
    // What the stream weighed when it sent the whole calendar at every version: about the versions times the
    // whole calendar (its last answer, the largest).
    const last = states.at(-1)!;
    const everyVersionWhole = last.Progresso.Versao * new TextEncoder().encode(`data: ${JSON.stringify(last)}\n\n`).length;
    console.log(`±3 calendar stream: ${data.length} events, ${(bytes / 1024).toFixed(1)} KB; ${last.Progresso.Versao} versions, the whole calendar at each about ${(everyVersionWhole / 1024).toFixed(0)} KB`);
    expect(bytes).toBeLessThanOrEqual(60 * 1024);
    expect(bytes).toBeLessThan(everyVersionWhole / 5);
  });

  it("a resume at the completed version ends at once; behind it or ahead of it, the whole calendar; a bad request answers its envelope before any stream", async () => {
    const { app } = testApp();
    const token = (await calendario(app, ASKED)).body.Token;
    const done = await completedCalendar(app, token);
    const version = done.body.Progresso.Versao;
    const resumed = await post(app, STREAM, { Token: token }, { "Last-Event-ID": String(version) });
    expect((await readStream(resumed)).filter((e) => e.data !== undefined)).toEqual([]);
    for (const lastId of [version - 3, version + 50]) {
      const events = (await readStream(await post(app, STREAM, { Token: token }, { "Last-Event-ID": String(lastId) }))).filter((e) => e.data !== undefined);
      expect(events).toHaveLength(1);
      expect(events[0]!.event).toBeUndefined();
      expect({ ...(JSON.parse(events[0]!.data!) as CalendarEnvelope), RequestId: "" }).toEqual({ ...done.body, RequestId: "" });
    }
    const bad = await post(app, STREAM, { Origem: "CNF", Destino: "SDU", Ida: "2026-03-20" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { Erro: { Campos: { Campo: string }[] } }).Erro.Campos[0]!.Campo).toBe("DiasFlexiveis");
  });

  it("a resume at the current version of a running calendar gets the changes after it, measured from what the client has", async () => {
    const { app } = testApp({ sources: fastSources({ latencyMs: 1_000, batches: 2 }) });
    const first = await calendario(app, ASKED);
    await vi.advanceTimersByTimeAsync(500);
    const now = await calendario(app, { Token: first.body.Token });
    const events = (await readStream(await post(app, STREAM, { Token: first.body.Token }, { "Last-Event-ID": String(now.body.Progresso.Versao) }))).filter((e) => e.data !== undefined);
    expect(events[0]!.event).toBe("dias");
    let calendar = now.body as CalendarEnvelope;
    for (const e of events) calendar = e.event === "dias" ? applyCalendarChange(calendar, CalendarChangeSchema.parse(JSON.parse(e.data!))) : (JSON.parse(e.data!) as CalendarEnvelope);
    const polled = await completedCalendar(app, first.body.Token);
    expect({ ...calendar, RequestId: "" }).toEqual({ ...polled.body, RequestId: "" });
  });
});

describe("a calendar stream whose store never confirms nor announces anything (pub/sub lost in a failover)", () => {
  it("still ends complete, with the same days and prices as a calendar that hears every announcement", async () => {
    const sources = () => fastSources({ latencyMs: 2_500, batches: 2 });
    const reference = follow(await readStream(await post(testApp({ sources: sources() }).app, STREAM, ASKED)));
    const inner = createMemorySessionStore({ clock: { now: () => Date.now() }, maxSessions: 100, ttlMs: 600_000 });
    const silent: SessionStore = { ...inner, watch: () => new Promise(() => undefined) };
    const { app } = testApp({ sources: sources(), store: silent });
    const { states } = follow(await readStream(await post(app, STREAM, ASKED)));
    const prices = (e: CalendarEnvelope) => e.Data.map((d) => [d.Data, d.MenorValor]);
    expect(states.at(-1)).toMatchObject({ Completed: true });
    expect(prices(states.at(-1)!)).toEqual(prices(reference.states.at(-1)!));
  });
});
