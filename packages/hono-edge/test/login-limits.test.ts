import { describe, expect, it } from "vitest";
import { AGENCY, consultar, manualClock, QUERY, testApp } from "./support/app.js";

type App = ReturnType<typeof testApp>["app"];

/** `POST /api/Token` as a form, from a client address (through the trusted proxy header when given). */
const tokenRequest = (app: App, username: string, password: string, from?: string) =>
  app.request("/api/Token", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(from ? { "X-Forwarded-For": `10.9.9.9, ${from}` } : {}) },
    body: new URLSearchParams({ grant_type: "password", username, password }).toString(),
  });

describe("login attempts count apart from the tenants' budgets", () => {
  it("10,050 logins with distinct usernames leave a spent tenant budget spent (they cannot evict its bucket)", async () => {
    const clock = manualClock();
    const { app } = testApp({ clock, configInput: { limits: { rateLimit: { capacity: 2, refillPerSecond: 0.001 } } } });
    expect((await consultar(app, QUERY)).status).toBe(200);
    expect((await consultar(app, QUERY)).status).toBe(200);
    expect((await consultar(app, QUERY)).status).toBe(429);
    for (let i = 0; i < 10_050; i++) await tokenRequest(app, `user-${i}`, "wrong-password");
    const after = await consultar(app, QUERY);
    expect(after.status).toBe(429);
    expect(after.body.Erro).toMatchObject({ Codigo: "LIMITE_EXCEDIDO" });
  });
});

describe("login brute force: limited per client address and per account, never locking the real user out", () => {
  const ATTACKER = "203.0.113.7";
  const USER = "198.51.100.2";
  const config = { http: { trustedProxyHeader: "x-forwarded-for" } } as const;

  it("spraying 300 usernames from one address is limited per address; the real user from elsewhere still logs in", async () => {
    const clock = manualClock();
    const { app, logs } = testApp({ clock, configInput: config });
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) {
      const res = await tokenRequest(app, `victim-${i}`, "Senha123!", ATTACKER);
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get("retry-after")).toBe("5");
        expect(await res.json()).toMatchObject({ error: "slow_down" });
      }
    }
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true); // invalid_grant: counted, not yet limited
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    const real = await tokenRequest(app, AGENCY.username, AGENCY.password, USER);
    expect(real.status).toBe(200);
    // Failed logins are logged with the username and the client address, never the password.
    expect(logs.records.filter((r) => r.msg === "login.failed")).toHaveLength(20);
    expect(logs.records.find((r) => r.msg === "login.failed")).toMatchObject({ level: "warn", username: "victim-0", client: ATTACKER });
    expect(logs.records.find((r) => r.msg === "login.limited")).toMatchObject({ username: "victim-20", client: ATTACKER });
    expect(logs.text()).not.toContain("Senha123!");
    // The address's budget comes back with time.
    clock.advance(5_000);
    expect((await tokenRequest(app, "victim-0", "Senha123!", ATTACKER)).status).toBe(400);
  });

  it("guessing one account's password is limited per account and address; the real user from another address is not locked out", async () => {
    const clock = manualClock();
    const { app } = testApp({ clock, configInput: config });
    const guesses: number[] = [];
    for (let i = 0; i < 8; i++) guesses.push((await tokenRequest(app, AGENCY.username, `guess-${i}`, ATTACKER)).status);
    expect(guesses).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
    const limited = await tokenRequest(app, AGENCY.username, AGENCY.password, ATTACKER);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("30");
    expect((await tokenRequest(app, AGENCY.username, AGENCY.password, USER)).status).toBe(200);
    clock.advance(30_000);
    expect((await tokenRequest(app, AGENCY.username, AGENCY.password, ATTACKER)).status).toBe(200);
  });

  it("behind a trusted proxy only the entry the proxy appended counts: a client cannot pick its address", async () => {
    const { app } = testApp({ clock: manualClock(), configInput: config });
    for (let i = 0; i < 25; i++) {
      const res = await app.request("/api/Token", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": `192.0.2.${i}, ${ATTACKER}` },
        body: new URLSearchParams({ grant_type: "password", username: `u${i}`, password: "x" }).toString(),
      });
      expect(res.status).toBe(i < 20 ? 400 : 429);
    }
  });
});

describe("login limits when the client address is unknown", () => {
  it("without an address (no proxy header, a runtime that does not say) attempts count per username only: nobody else is locked out", async () => {
    const { app } = testApp({ clock: manualClock() });
    for (let i = 0; i < 50; i++) expect((await tokenRequest(app, `sprayed-${i}`, "x")).status).toBe(400);
    const guesses = [];
    for (let i = 0; i < 6; i++) guesses.push((await tokenRequest(app, "target", `guess-${i}`)).status);
    expect(guesses).toEqual([400, 400, 400, 400, 400, 429]);
    expect((await tokenRequest(app, AGENCY.username, AGENCY.password)).status).toBe(200);
  });
});

describe("progressive delay on one account", () => {
  it("a long guessing run from one address waits longer and longer (30 s, then minutes); the user from an address it logged in from is never slowed", async () => {
    const clock = manualClock();
    const { app } = testApp({ clock, configInput: { http: { trustedProxyHeader: "x-forwarded-for" } } });
    const home = "198.51.100.2";
    expect((await tokenRequest(app, AGENCY.username, AGENCY.password, home)).status).toBe(200);
    const attacker = "203.0.113.9";
    const waits: number[] = [];
    let attempts = 0;
    for (let round = 0; round < 200 && (waits.at(-1) ?? 0) < 600; round++) {
      const res = await tokenRequest(app, AGENCY.username, `guess-${round}`, attacker);
      if (res.status === 429) {
        const wait = Number(res.headers.get("retry-after"));
        if (waits.at(-1) !== wait) waits.push(wait);
        clock.advance(wait * 1_000);
      } else {
        expect(res.status).toBe(400);
        attempts++;
      }
      expect((await tokenRequest(app, AGENCY.username, AGENCY.password, home)).status).toBe(200);
    }
    // First the address's short-term bucket (30 s), then the account's (a minute), then the sustained ones (10 min and more).
    expect(waits[0]).toBe(30);
    expect(waits).toContain(60);
    expect(waits.at(-1)).toBeGreaterThanOrEqual(600);
    expect(attempts).toBeGreaterThanOrEqual(10);
    expect(attempts).toBeLessThanOrEqual(50);
  });
});
