/**
 * What the app counts through the `ServiceMetrics` port, read as Prometheus reads it (prom-client's text,
 * parsed): open SSE streams while a stream is open and after it ended or its client left, requests refused
 * by the tenant's budget and by the login limits, and a new search refused for capacity. In virtual time,
 * on the simulator.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createPromMetrics } from "../../src/entries/node-metrics.js";
import { ADMIN_KEY, AGENCY, NOW, post, QUERY, testApp } from "../support/app.js";
import { parseScrape, sampleOf } from "../support/prometheus.js";
import { readSome, readStream } from "../support/sse.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const withMetrics = (configInput: Parameters<typeof testApp>[0] extends infer O ? (O extends { configInput?: infer C } ? C : never) : never = {}) => {
  const metrics = createPromMetrics({ nodeMetrics: false });
  const { app } = testApp({ metrics, metricsExposition: metrics, configInput });
  const scrape = async () => parseScrape(await (await app.request("/metrics", { headers: { "X-Admin-Key": ADMIN_KEY } })).text());
  return { app, scrape };
};

describe("the request metrics' exposition", () => {
  it("counts by route, method and status; the latency histogram cumulative by le, with sum and count", async () => {
    const m = createPromMetrics({ nodeMetrics: false });
    m.request("/a", "GET", 200, 0.0007);
    m.request("/a", "GET", 404, 0.2);
    m.request("/b", "POST", 200, 100);
    const f = parseScrape(await m.scrape());
    expect(f.get("voar_http_requests_total")!.samples).toEqual([
      { labels: { route: "/a", method: "GET", status: "200" }, value: 1 },
      { labels: { route: "/a", method: "GET", status: "404" }, value: 1 },
      { labels: { route: "/b", method: "POST", status: "200" }, value: 1 },
    ]);
    const bucket = (route: string, le: string) => sampleOf(f, "voar_http_request_duration_seconds_bucket", { route, le });
    expect([bucket("/a", "0.0005"), bucket("/a", "0.001"), bucket("/a", "0.1"), bucket("/a", "0.25"), bucket("/a", "+Inf")]).toEqual([0, 1, 1, 2, 2]);
    expect([bucket("/b", "60"), bucket("/b", "+Inf")]).toEqual([0, 1]);
    expect(sampleOf(f, "voar_http_request_duration_seconds_sum", { route: "/a" })).toBeCloseTo(0.2007, 6);
    expect(sampleOf(f, "voar_http_request_duration_seconds", { route: "/b" })).toBe(1);
    expect(f.get("voar_http_request_duration_seconds")!.type).toBe("HISTOGRAM");
  });
});

describe("the app's metrics", () => {
  it("count an SSE stream as open until it ends, and until its client leaves", async () => {
    const { app, scrape } = withMetrics();
    const res = await post(app, "/api/ConsultaAereo/Stream", QUERY);
    expect(res.status).toBe(200);
    expect(sampleOf(await scrape(), "voar_sse_streams_open")).toBe(1);
    const events = await readStream(res);
    expect(events.some((e) => e.data?.includes('"Completed":true'))).toBe(true);
    expect(sampleOf(await scrape(), "voar_sse_streams_open")).toBe(0);
    // A client that leaves before the end: the stream is no longer counted.
    const left = await post(app, "/api/ConsultaAereo/Stream", { ...QUERY, Ida: "2026-03-21" });
    expect(sampleOf(await scrape(), "voar_sse_streams_open")).toBe(1);
    await readSome(left, 1);
    expect(sampleOf(await scrape(), "voar_sse_streams_open")).toBe(0);
  });

  it("count requests refused by the tenant's budget and by the login limits", async () => {
    const { app, scrape } = withMetrics({ limits: { rateLimit: { capacity: 1, refillPerSecond: 0.001 } } });
    expect((await post(app, "/api/ConsultaAereo/Consultar", QUERY)).status).toBe(200);
    expect((await post(app, "/api/ConsultaAereo/Consultar", QUERY)).status).toBe(429);
    const login = (password: string) =>
      app.request("/api/Token", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "password", username: AGENCY.username, password }).toString() });
    const statuses: number[] = [];
    // Wrong passwords for one username: after 5 failures (limits.login.perAccount), the next ones are slowed down.
    for (let i = 0; i < 7; i++) statuses.push((await login(`wrong-password-${i}`)).status);
    const slowedDown = statuses.filter((s) => s === 429).length;
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
    const m = await scrape();
    expect(sampleOf(m, "voar_refusals_total", { scope: "tenant" })).toBe(1);
    const loginRefusals = m.get("voar_refusals_total")!.samples.filter((s) => s.labels["scope"]!.startsWith("login_"));
    expect(loginRefusals.reduce((n, s) => n + s.value, 0)).toBe(slowedDown);
    expect(sampleOf(m, "voar_http_requests_total", { route: "/api/Token", status: "429" })).toBe(slowedDown);
    expect(sampleOf(m, "voar_http_requests_total", { route: "/api/ConsultaAereo/Consultar", status: "429" })).toBe(1);
  });

  it("count a new search refused for capacity, and the searches that ran", async () => {
    const { app, scrape } = withMetrics({ limits: { maxSessions: 1 } });
    expect((await post(app, "/api/ConsultaAereo/Consultar", QUERY)).status).toBe(200);
    expect((await post(app, "/api/ConsultaAereo/Consultar", { ...QUERY, Ida: "2026-03-22" })).status).toBe(429);
    const m = await scrape();
    expect(sampleOf(m, "voar_searches_started_total")).toBe(1);
    expect(sampleOf(m, "voar_searches_refused_total", { reason: "capacity" })).toBe(1);
    expect(sampleOf(m, "voar_searches_running")).toBe(1);
  });
});
