/**
 * A calendar's budget of upstream requests, shared by the searches of its days: each request of any of them
 * takes one from the group, besides its own search's budget; past the group's limit a request is not sent
 * and fails as the calendar's, while a search outside the group goes on.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RequestBudgetExhausted } from "@voar/core";
import type { HttpReply, HttpTransport } from "../../src/transport/http-transport.js";
import { RequestBudgetGroup, requestBudgetGroupOf, withRequestBudgetGroup } from "../../src/upstream/request-budget-group.js";
import { protectedTransport, searchBudgets, upstreamProtection } from "../../src/upstream/source-breaker.js";
import { testQuery, TEST_NOW } from "../support/live-upstream.js";

const counting = () => {
  let sent = 0;
  const transport: HttpTransport = {
    send: (): Promise<HttpReply> => ((sent += 1), Promise.resolve({ status: 200, header: () => undefined, text: "{}" })),
    close: () => Promise.resolve(),
  };
  return { transport, sent: () => sent };
};

const send = async (t: HttpTransport): Promise<string> => {
  try {
    return String((await t.send({ url: "http://u.test/api/ConsultaAereo/Consultar", method: "POST", headers: {}, body: "{}", signal: new AbortController().signal })).status);
  } catch (e) {
    return e instanceof RequestBudgetExhausted ? `budget:${e.scope ?? "search"}` : String(e);
  }
};

describe("a request budget group", () => {
  beforeEach(() => vi.useFakeTimers({ now: TEST_NOW }));
  afterEach(() => vi.useRealTimers());

  it("counts the requests of every search it is attached to, and refuses the calendar's past its limit", async () => {
    const up = counting();
    const group = new RequestBudgetGroup(3);
    const day1 = withRequestBudgetGroup(testQuery(), group);
    const day2 = withRequestBudgetGroup(testQuery(), group);
    const outside = testQuery();
    const protection = upstreamProtection(false, false, 30_000);
    const [a, b, c] = [day1, day2, outside].map((q) => protectedTransport(protection, up.transport, "upstream:latam", q, undefined));
    expect([await send(a!), await send(b!), await send(a!)]).toEqual(["200", "200", "200"]);
    expect(group.used).toBe(3);
    expect([await send(b!), await send(a!)]).toEqual(["budget:calendar", "budget:calendar"]);
    // A search the group is not attached to is not the calendar's business.
    expect(await send(c!)).toBe("200");
    expect(up.sent()).toBe(4);
    expect(requestBudgetGroupOf(day1)).toBe(group);
    expect(requestBudgetGroupOf(outside)).toBeUndefined();
  });

  it("each search keeps its own budget too: whichever runs out first stops it", async () => {
    const up = counting();
    const group = new RequestBudgetGroup(10, 8); // taken over with 8 already used
    const day = withRequestBudgetGroup(testQuery(), group);
    const budgets = searchBudgets(upstreamProtection(false, { maxRequestsPerSearch: 1 }, 30_000), 1, 60_000);
    const t = protectedTransport(upstreamProtection(false, { maxRequestsPerSearch: 1 }, 30_000), up.transport, "upstream:latam", day, budgets);
    expect([await send(t), await send(t)]).toEqual(["200", "budget:search"]);
    const other = protectedTransport(upstreamProtection(false, false, 30_000), up.transport, "upstream:gol", withRequestBudgetGroup(testQuery(), group), undefined);
    expect([await send(other), await send(other)]).toEqual(["200", "budget:calendar"]);
    expect(group.used).toBe(10);
  });
});
