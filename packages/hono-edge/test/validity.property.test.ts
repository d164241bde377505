/**
 * The promise of every price the service shows, as a property in virtual time: no answer of any route
 * (Consultar and its stream, Calendario and its stream: polls, repeated bodies, resumes), at any time,
 * carries a price whose `ValidoAte` has passed, and a calendar's priced day always opens (its `TokenBusca`
 * answers, never `BUSCA_EXPIRADA`). Random worlds: the upstream's answers current for 20 s to 10 minutes
 * (the answer cache's fresh and stale windows), airlines answering in 0.2 to 50 s, clients asking at random
 * moments over several minutes, so offers expire before, during and after searches and calendars.
 */
import { applyCalendarChange, CalendarChangeSchema, type CalendarEnvelope, type SearchQuery } from "@voar/core";
import { createSimulator } from "@voar/testing";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "../src/clock.js";
import { hashText } from "../src/http/entity-tag.js";
import { createMemoryAnswerStore } from "../src/sources/answer-store.js";
import { createAnswerCache } from "../src/sources/cached-sources.js";
import { NOW, post, testApp } from "./support/app.js";
import { parseSse, type SseEvent } from "./support/sse.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

type App = ReturnType<typeof testApp>["app"];

const QUERIES = [
  { Origem: "GRU", Destino: "SSA", Ida: "2026-03-20" },
  { Origem: "CNF", Destino: "SDU", Ida: "2026-03-21", Volta: "2026-03-24" },
] as const;

/** Every `ValidoAte` anywhere in an answer (offers' segments, calendar days), as epoch ms. */
const validities = (json: unknown): number[] => {
  if (Array.isArray(json)) return json.flatMap(validities);
  if (typeof json !== "object" || json === null) return [];
  return Object.entries(json).flatMap(([k, v]) => (k === "ValidoAte" && typeof v === "string" ? [Date.parse(v)] : validities(v)));
};

/** The promise, checked on one answer at the time it arrives; a calendar's priced day says until when its price holds. */
const expectCurrent = (json: unknown, what: string) => {
  const now = Date.now();
  for (const until of validities(json)) if (until <= now) expect.fail(`${what}: a price valid until ${new Date(until).toISOString()} at ${new Date(now).toISOString()}`);
  const days = (json as { Data?: unknown[] }).Data;
  if (Array.isArray(days) && (json as { Progresso?: { DiasTotal?: number } }).Progresso?.DiasTotal !== undefined) {
    for (const d of days as CalendarEnvelope["Data"]) if ((d.MenorValor !== null || d.MenorPontos !== null) && d.ValidoAte === undefined) expect.fail(`${what}: a priced day without ValidoAte`);
  }
};

/** A calendar's priced days each open their search at once: a price shown is a price the client can open. */
const expectPricedDaysOpen = async (app: App, calendar: CalendarEnvelope) => {
  for (const d of calendar.Data) {
    if (d.MenorValor === null && d.MenorPontos === null) continue;
    const res = await post(app, "/api/ConsultaAereo/Consultar", { Token: d.TokenBusca, QuantidadePorPagina: 5 });
    const body: unknown = await res.json();
    if (res.status !== 200) expect.fail(`day ${d.Data} priced until ${d.ValidoAte} at ${new Date(Date.now()).toISOString()}: its TokenBusca answered ${res.status}`);
    expectCurrent(body, `day ${d.Data}'s search`);
  }
};

/**
 * Reads a stream while virtual time moves, each event checked when it arrives (a calendar's changes applied to
 * the calendar the client holds, which is what it shows), for at most `maxMs`, then leaves.
 */
const readChecked = async (app: App, res: Response, what: string, maxMs: number) => {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let calendar: CalendarEnvelope | undefined;
  const onEvent = (e: SseEvent) => {
    if (e.data === undefined) return;
    const json: unknown = JSON.parse(e.data);
    if (e.event === "dias") calendar = applyCalendarChange(calendar!, CalendarChangeSchema.parse(json));
    else if ((json as { Progresso?: { DiasTotal?: number } }).Progresso?.DiasTotal !== undefined) calendar = json as CalendarEnvelope;
    expectCurrent(calendar ?? json, what);
  };
  let step: ReadableStreamReadResult<Uint8Array> | undefined;
  let reading = false;
  for (let t = 0; t <= maxMs; ) {
    if (!reading) {
      reading = true;
      void reader.read().then((r) => ((step = r), (reading = false)));
    }
    await vi.advanceTimersByTimeAsync(0);
    if (!step) {
      await vi.advanceTimersByTimeAsync(50);
      t += 50;
      continue;
    }
    const got: ReadableStreamReadResult<Uint8Array> = step;
    step = undefined;
    if (got.done) break;
    text += decoder.decode(got.value, { stream: true });
    const cut = text.lastIndexOf("\n\n");
    if (cut < 0) continue;
    parseSse(text.slice(0, cut + 2)).forEach(onEvent);
    text = text.slice(cut + 2);
  }
  await reader.cancel().catch(() => undefined);
  if (calendar) await expectPricedDaysOpen(app, calendar);
};

const action = fc.record({
  afterMs: fc.integer({ min: 0, max: 120_000 }),
  kind: fc.constantFrom("consultar", "poll", "stream", "calendario", "calendarPoll", "calendarStream"),
  query: fc.integer({ min: 0, max: QUERIES.length - 1 }),
});

const world = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  freshMs: fc.constantFrom(10_000, 30_000, 120_000, 300_000),
  staleMs: fc.constantFrom(10_000, 60_000, 300_000),
  slowestMs: fc.constantFrom(2_000, 20_000, 50_000),
  actions: fc.array(action, { minLength: 4, maxLength: 9 }),
});

describe("no price past its validity, on any route, at any time", () => {
  it("holds for searches and calendars, polled, re-sent and streamed, while their offers expire", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        vi.setSystemTime(NOW);
        // Each airline's time, by airline and day, from 0.2 s to the slowest.
        const latency = (sourceId: string, q: SearchQuery) => 200 + (parseInt(hashText(`${w.seed}|${sourceId}|${q.departureDate}`), 36) % (w.slowestMs - 200));
        const simulator = createSimulator({ seed: w.seed, latencyMs: latency, batches: 2 });
        const cache = createAnswerCache({ store: createMemoryAnswerStore({ maxEntries: 500, clock: systemClock }), clock: systemClock, freshMs: w.freshMs, staleMs: w.staleMs, account: "t" });
        const { app } = testApp({ sources: cache.wrap(simulator.sources), configInput: { search: { ttlMs: 600_000 } } });
        const tokens = { search: new Map<number, string>(), calendar: new Map<number, string>() };
        try {
          for (const a of w.actions) {
            await vi.advanceTimersByTimeAsync(a.afterMs);
            const query = QUERIES[a.query]!;
            const calendarBody = { ...query, DiasFlexiveis: 1 };
            const what = `${a.kind} ${a.query} at +${Math.round((Date.now() - NOW) / 1000)} s`;
            switch (a.kind) {
              case "consultar":
              case "poll": {
                const token = tokens.search.get(a.query);
                const res = await post(app, "/api/ConsultaAereo/Consultar", a.kind === "poll" && token ? { Token: token } : query);
                const body = (await res.json()) as { Token?: string };
                expectCurrent(body, what);
                if (res.status === 200 && body.Token) tokens.search.set(a.query, body.Token);
                break;
              }
              case "calendario":
              case "calendarPoll": {
                const token = tokens.calendar.get(a.query);
                const res = await post(app, "/api/ConsultaAereo/Calendario", a.kind === "calendarPoll" && token ? { Token: token } : calendarBody);
                const body = (await res.json()) as CalendarEnvelope;
                expectCurrent(body, what);
                if (res.status === 200) {
                  tokens.calendar.set(a.query, body.Token);
                  await expectPricedDaysOpen(app, body);
                }
                break;
              }
              case "stream":
                await readChecked(app, await post(app, "/api/ConsultaAereo/Stream", query), what, 60_000);
                break;
              case "calendarStream": {
                const token = tokens.calendar.get(a.query);
                await readChecked(app, await post(app, "/api/ConsultaAereo/Calendario/Stream", token ? { Token: token } : calendarBody), what, 60_000);
                break;
              }
            }
          }
        } finally {
          cache.close();
        }
      }),
      { numRuns: 25 },
    );
  }, 300_000);
});
