import { ErrorEnvelopeSchema } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AGENCY, API_KEY, answerOf, consultar, manualClock, NOW, QUERY, testApp, TOKEN_SECRET } from "./support/app.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const tokenRequest = (app: ReturnType<typeof testApp>["app"], form: Record<string, string>, json = false) =>
  app.request("/api/Token", {
    method: "POST",
    headers: { "Content-Type": json ? "application/json" : "application/x-www-form-urlencoded" },
    body: json ? JSON.stringify(form) : new URLSearchParams(form).toString(),
  });

const login = async (app: ReturnType<typeof testApp>["app"]) => {
  const res = await tokenRequest(app, { grant_type: "password", ...AGENCY });
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; token_type: string; expires_in: number };
};

describe("bearer authentication", () => {
  it.each([
    ["missing", undefined, "Authorization"],
    ["not Bearer", `Basic ${btoa("a:b")}`, "Bearer"],
    ["empty Bearer", "Bearer ", "Bearer"],
    ["unknown key", "Bearer not-a-configured-key-at-all", "não é válido"],
    ["forged issued token", "Bearer voar.eyJzdWIiOiJhZ2VuY2lhMSIsImV4cCI6OTk5OTk5OTk5OX0.c2lnbmF0dXJl", "não é válido"],
  ])("%s: 401 NAO_AUTORIZADO", async (_, header, message) => {
    const { app } = testApp();
    const res = await consultar(app, QUERY, header === undefined ? { Authorization: "" } : { Authorization: header });
    expect(res.status).toBe(401);
    expect(ErrorEnvelopeSchema.safeParse(res.body).success).toBe(true);
    expect(res.body.Erro.Codigo).toBe("NAO_AUTORIZADO");
    expect(res.body.MensagemErro).toContain(message);
  });

  it("an API key authenticates", async () => {
    const { app } = testApp();
    expect((await consultar(app, QUERY, { Authorization: `bearer ${API_KEY}` })).status).toBe(200);
  });
});

describe("POST /api/Token (OAuth2 password grant)", () => {
  it("issues a bearer token for agency credentials, form-encoded or JSON, never cached", async () => {
    const { app } = testApp();
    const res = await tokenRequest(app, { grant_type: "password", ...AGENCY });
    expect(res.headers.get("cache-control")).toBe("no-store");
    const token = (await res.json()) as Record<string, unknown>;
    expect(token).toEqual({ access_token: expect.stringMatching(/^voar\./), token_type: "bearer", expires_in: 3600 });
    expect((await tokenRequest(app, { grant_type: "password", ...AGENCY }, true)).status).toBe(200);
    const search = await consultar(app, QUERY, { Authorization: `Bearer ${token.access_token as string}` });
    expect(search.status).toBe(200);
  });

  it("a token expires after expires_in (injected clock): 401 saying so", async () => {
    const clock = manualClock();
    const { app } = testApp({ clock, configInput: { tokens: { secret: TOKEN_SECRET, ttlSeconds: 600 } } });
    const { access_token, expires_in } = await login(app);
    expect(expires_in).toBe(600);
    clock.advance(599_000);
    expect((await consultar(app, QUERY, { Authorization: `Bearer ${access_token}` })).status).toBe(200);
    clock.advance(1_000);
    const expired = await consultar(app, QUERY, { Authorization: `Bearer ${access_token}` });
    expect(expired.status).toBe(401);
    expect(expired.body.MensagemErro).toMatch(/expirou/);
  });

  it("a token signed with the shared secret is accepted by another instance; one with another secret is not", async () => {
    const { access_token } = await login(testApp().app);
    expect((await consultar(testApp().app, QUERY, { Authorization: `Bearer ${access_token}` })).status).toBe(200);
    const other = testApp({ configInput: { tokens: { secret: "another-signing-secret-of-32-chars-or-more" } } }).app;
    expect((await consultar(other, QUERY, { Authorization: `Bearer ${access_token}` })).status).toBe(401);
  });

  it("a tampered token is refused", async () => {
    const { app } = testApp();
    const { access_token } = await login(app);
    const [prefix, claims, sig] = access_token.split(".") as [string, string, string];
    const forged = JSON.parse(atob(claims.replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;
    const body = btoa(JSON.stringify({ ...forged, exp: 9_999_999_999 })).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    expect((await consultar(app, QUERY, { Authorization: `Bearer ${prefix}.${body}.${sig}` })).status).toBe(401);
  });

  it("wrong password or unknown user: 401; missing members or another grant: 400 naming them", async () => {
    const { app } = testApp();
    expect((await tokenRequest(app, { grant_type: "password", username: AGENCY.username, password: "wrong-password" })).status).toBe(401);
    expect((await tokenRequest(app, { grant_type: "password", username: "nobody", password: AGENCY.password })).status).toBe(401);
    const bad = await tokenRequest(app, { grant_type: "client_credentials", username: AGENCY.username });
    expect(bad.status).toBe(400);
    const body = await answerOf(bad);
    expect(body.Erro.Campos.map((c) => c.Campo).sort()).toEqual(["grant_type", "password"]);
  });

  it("neither tokens nor passwords ever appear in logs or error bodies", async () => {
    const { app, logs } = testApp();
    const { access_token } = await login(app);
    await consultar(app, QUERY, { Authorization: `Bearer ${access_token}` });
    await consultar(app, QUERY);
    const bad = await tokenRequest(app, { grant_type: "password", username: AGENCY.username, password: "wrong-password-xyz" });
    const badText = await bad.text();
    const unknown = await consultar(app, QUERY, { Authorization: "Bearer some-unknown-token-value" });
    const everything = `${logs.text()}\n${badText}\n${JSON.stringify(unknown.body)}`;
    for (const secret of [access_token, API_KEY, AGENCY.password, "wrong-password-xyz", "some-unknown-token-value", TOKEN_SECRET]) {
      expect(everything).not.toContain(secret);
    }
    expect(logs.records.filter((r) => r.msg === "request").length).toBe(5);
  });

  it("login attempts are rate limited per username", async () => {
    const { app } = testApp({ configInput: { limits: { rateLimit: { capacity: 3, refillPerSecond: 0.1 } } } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await tokenRequest(app, { grant_type: "password", username: AGENCY.username, password: `guess-${i}-xx` })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});
