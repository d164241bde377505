import { ErrorEnvelopeSchema } from "@voar/core";
import { TokenErrorSchema } from "../src/auth/oauth-error.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AGENCY, API_KEY, consultar, manualClock, NOW, QUERY, testApp, TOKEN_SECRET } from "./support/app.js";

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
    const { app } = testApp({ clock, configInput: { tokens: { secret: TOKEN_SECRET, ttlSeconds: 900 } } });
    const { access_token, expires_in } = await login(app);
    expect(expires_in).toBe(900);
    // A client that renews 10 min before expiry still uses the token for 5 min.
    clock.advance((expires_in - 600) * 1000);
    expect((await consultar(app, QUERY, { Authorization: `Bearer ${access_token}` })).status).toBe(200);
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

  it("login attempts are rate limited per username (and client address): 429 slow_down with Retry-After, other users unaffected", async () => {
    const { app } = testApp({ configInput: { limits: { login: { perAccount: { capacity: 3, refillPerSecond: 0.1 } } } } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await tokenRequest(app, { grant_type: "password", username: AGENCY.username, password: `guess-${i}-xx` })).status);
    expect(statuses).toEqual([400, 400, 400]);
    const limited = await tokenRequest(app, { grant_type: "password", ...AGENCY });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("10");
    expect(await limited.json()).toEqual({ error: "slow_down", error_description: expect.stringContaining("10 s") });
    expect((await tokenRequest(app, { grant_type: "password", username: "someone-else", password: "whatever-1" })).status).toBe(400);
    vi.advanceTimersByTime(10_000);
    expect((await tokenRequest(app, { grant_type: "password", ...AGENCY })).status).toBe(200);
  });
});

describe("POST /api/Token errors in OAuth2 form (RFC 6749 §5.2)", () => {
  const raw = (app: ReturnType<typeof testApp>["app"], body: string, headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" }) =>
    app.request("/api/Token", { method: "POST", headers, body });

  /** The status and body of a failed login; the body must be exactly { error, error_description } in §5.2's characters. */
  const failure = async (res: Response) => {
    const body = (await res.json()) as Record<string, unknown>;
    expect(TokenErrorSchema.parse(body)).toEqual(body);
    expect(res.headers.get("cache-control")).toBe("no-store");
    return { status: res.status, error: body.error, description: body.error_description as string };
  };

  it("wrong password or unknown user: 400 invalid_grant, the same answer for both", async () => {
    const { app } = testApp();
    const wrong = await failure(await tokenRequest(app, { grant_type: "password", username: AGENCY.username, password: "wrong-password" }));
    const nobody = await failure(await tokenRequest(app, { grant_type: "password", username: "nobody", password: AGENCY.password }));
    expect(wrong).toEqual({ status: 400, error: "invalid_grant", description: "usuario ou senha incorretos." });
    expect(nobody).toEqual(wrong);
  });

  it("another grant type: 400 unsupported_grant_type; no grant type: 400 invalid_request", async () => {
    const { app } = testApp();
    expect(await failure(await tokenRequest(app, { grant_type: "client_credentials", ...AGENCY }))).toMatchObject({ status: 400, error: "unsupported_grant_type" });
    expect(await failure(await tokenRequest(app, { grant_type: "authorization_code" }, true))).toMatchObject({ status: 400, error: "unsupported_grant_type" });
    expect(await failure(await tokenRequest(app, { ...AGENCY }))).toMatchObject({ status: 400, error: "invalid_request", description: expect.stringContaining("grant_type") });
  });

  it.each([
    ["username", { grant_type: "password", password: AGENCY.password }],
    ["password", { grant_type: "password", username: AGENCY.username }],
    ["password", { grant_type: "password", username: AGENCY.username, password: "" }],
  ])("a missing or empty %s: 400 invalid_request naming it", async (field, form) => {
    const { app } = testApp();
    const res = await failure(await tokenRequest(app, form));
    expect(res).toMatchObject({ status: 400, error: "invalid_request" });
    expect(res.description.startsWith(`${field} e obrigatorio`)).toBe(true);
  });

  it("a repeated parameter, a body that is not JSON, or a JSON array: 400 invalid_request", async () => {
    const { app } = testApp();
    const repeated = await failure(await raw(app, `grant_type=password&username=${AGENCY.username}&username=x&password=${AGENCY.password}`));
    expect(repeated).toMatchObject({ status: 400, error: "invalid_request", description: expect.stringContaining("username") });
    for (const body of ["{not json", "[1,2]", "null"]) {
      expect(await failure(await raw(app, body, { "Content-Type": "application/json" }))).toMatchObject({ status: 400, error: "invalid_request" });
    }
  });

  it("a body over the limit: 413 invalid_request", async () => {
    const { app } = testApp({ configInput: { limits: { bodyBytes: 256 } } });
    expect(await failure(await raw(app, `grant_type=password&username=a&password=${"x".repeat(300)}`))).toMatchObject({ status: 413, error: "invalid_request" });
  });

  it("ignores Authorization (a legacy client may send its old bearer token) and client_id", async () => {
    const { app } = testApp();
    const res = await raw(app, new URLSearchParams({ grant_type: "password", ...AGENCY, client_id: "legacy-app" }).toString(), {
      "Content-Type": "application/x-www-form-urlencoded",
      Authorization: "Bearer an-expired-or-old-token",
    });
    expect(res.status).toBe(200);
  });
});
