/**
 * The client on a calendar's light stream: the service sends the whole calendar first and last, and between
 * them `dias` events with only the days that changed. The client applies each change to the calendar it has
 * and yields the whole calendar every time, checked against core's strict schemas; a change before any whole
 * answer is a malformed stream.
 */
import { describe, expect, it } from "vitest";
import { calendarToEnvelope, CalendarEnvelopeSchema, initialCalendar, planCalendar, reduceCalendar, type CalendarChange, type CalendarEnvelope } from "@voar/core";
import { createClient, type FetchLike } from "../../src/fetch.js";
import { testQuery } from "../support/live-upstream.js";

const query = testQuery();

/** A service whose calendar stream is the given SSE text. */
const streaming = (text: string): FetchLike => () =>
  Promise.resolve(new Response(new Blob([text]).stream(), { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8" } }));

const whole = (e: CalendarEnvelope) => `id: ${e.Progresso.Versao}\ndata: ${JSON.stringify(e)}\n\n`;
const change = (c: CalendarChange) => `event: dias\nid: ${c.Progresso.Versao}\ndata: ${JSON.stringify(c)}\n\n`;

describe("the client on a calendar's stream", () => {
  const plan = planCalendar(query, 1);
  const options = { calendarId: "cal-1", requestId: "r", nextPollMs: 500 };
  const start = calendarToEnvelope(initialCalendar(plan), options);
  // Every day started (one change of the three days), then every day given up (the end, whole).
  const started = [0, 1, 2].reduce((c, index) => reduceCalendar(c, { type: "started", index }), initialCalendar(plan));
  const mid = calendarToEnvelope(started, options);
  const end = calendarToEnvelope([0, 1, 2].reduce((c, index) => reduceCalendar(c, { type: "failed", index, message: "x" }), started), options);
  const changeOf = (e: CalendarEnvelope, days: number[]): CalendarChange => ({ Token: e.Token, Completed: e.Completed, HasResult: e.HasResult, Progresso: e.Progresso, Data: days.map((i) => e.Data[i]!) });

  it("applies each change to the calendar it has and yields the whole calendar, valid, every time", async () => {
    const client = createClient({ baseUrl: "http://voar.test/api", token: "k", transport: "sse", validate: true, fetch: streaming(whole(start) + change(changeOf(mid, [0, 1, 2])) + whole(end)) });
    const seen: CalendarEnvelope[] = [];
    for await (const e of client.calendar({ Origem: "GRU", Destino: "SSA", Ida: "2026-09-15", DiasFlexiveis: 1 })) seen.push(e);
    expect(seen).toHaveLength(3);
    for (const e of seen) expect(CalendarEnvelopeSchema.safeParse(e).success).toBe(true);
    expect(seen[1]!.Data.map((d) => d.Estado)).toEqual(["buscando", "buscando", "buscando"]);
    expect(seen[1]!.Data[0]!.LeaseId).toBe("cal-1");
    expect(seen[1]!.Progresso).toEqual(mid.Progresso);
    expect(seen[2]).toEqual(end);
  });

  it("a change before any whole calendar is a malformed stream", async () => {
    const client = createClient({ baseUrl: "http://voar.test/api", token: "k", transport: "sse", fetch: streaming(change(changeOf(mid, [0]))) });
    await expect(client.calendarAll({ Origem: "GRU", Destino: "SSA", Ida: "2026-09-15", DiasFlexiveis: 1 })).rejects.toMatchObject({ _tag: "MalformedPayload" });
  });
});
