import { describe, expect, it } from "vitest";
import { AGENCY, manualClock, testApp } from "./support/app.js";

type App = ReturnType<typeof testApp>["app"];

const PROXIED = { http: { trustedProxyHeader: "x-forwarded-for" } } as const;

/** `POST /api/Token` as a form from a client address (the trusted proxy's header). */
const login = (app: App, password: string, from: string, username: string = AGENCY.username) =>
  app.request("/api/Token", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": from },
    body: new URLSearchParams({ grant_type: "password", username, password }).toString(),
  });

/** The n-th of many distinct client addresses (10.x.y.z). */
const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

describe("successful logins do not count against the login limits", () => {
  it("a site that logs every visitor in with one account through one server logs in 1,000 times in a row, and 100 at once", async () => {
    const clock = manualClock();
    const { app, logs } = testApp({ clock, configInput: PROXIED });
    const site = "198.51.100.40";
    // Four logins a second for over four minutes: well past the old limit of 5, within the successes' cap (5/s).
    for (let i = 0; i < 1_000; i++) {
      expect((await login(app, AGENCY.password, site)).status).toBe(200);
      clock.advance(250);
    }
    const together = await Promise.all(Array.from({ length: 100 }, () => login(app, AGENCY.password, site)));
    expect(together.map((r) => r.status).every((s) => s === 200)).toBe(true);
    expect(logs.records.filter((r) => r.msg === "login.limited" || r.msg === "login.failed")).toEqual([]);
  });

  it("failures still count between the successes: after five wrong passwords from the address, it waits, right password or not", async () => {
    const clock = manualClock();
    const { app } = testApp({ clock, configInput: PROXIED });
    const site = "198.51.100.41";
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await login(app, AGENCY.password, site)).status);
      statuses.push((await login(app, `typo-${i}`, site)).status);
    }
    expect(statuses).toEqual([200, 400, 200, 400, 200, 400, 200, 400, 200, 400, 429, 429]);
    expect((await login(app, AGENCY.password, site)).status).toBe(429);
    clock.advance(30_000);
    expect((await login(app, AGENCY.password, site)).status).toBe(200);
  });

  it("successes have a cap of their own (limits.login.successes), per username and address", async () => {
    const clock = manualClock();
    const { app, logs } = testApp({ clock, configInput: { ...PROXIED, limits: { login: { successes: { capacity: 3, refillPerSecond: 0.5 } } } } });
    const site = "198.51.100.42";
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await login(app, AGENCY.password, site)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const capped = await login(app, AGENCY.password, site);
    expect(capped.headers.get("retry-after")).toBe("2");
    expect(await capped.json()).toMatchObject({ error: "slow_down", error_description: expect.stringContaining("logins demais") });
    expect(logs.records.find((r) => r.msg === "login.limited")).toMatchObject({ scope: "successes", client: site });
    expect((await login(app, AGENCY.password, "198.51.100.43")).status).toBe(200);
    clock.advance(2_000);
    expect((await login(app, AGENCY.password, site)).status).toBe(200);
  });
});

describe("guessing one account's password from many addresses", () => {
  it("1,000 addresses with one guess each: 10 are checked, 990 wait (429 slow_down, Retry-After); one summary line, not one per attempt", async () => {
    const clock = manualClock();
    const { app, logs } = testApp({ clock, configInput: PROXIED });
    const home = "198.51.100.2";
    expect((await login(app, AGENCY.password, home)).status).toBe(200);
    const counts = new Map<number, number>();
    for (let i = 0; i < 1_000; i++) {
      const res = await login(app, `guess-${i}`, address(i));
      counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
      if (res.status === 429) {
        expect(res.headers.get("retry-after")).toBe("60");
        expect(await res.json()).toMatchObject({ error: "slow_down", error_description: expect.stringContaining("para este usuario") });
      }
    }
    expect(Object.fromEntries(counts)).toEqual({ 400: 10, 429: 990 });
    // The real user, from the address it logged in from, is not slowed at all.
    expect((await login(app, AGENCY.password, home)).status).toBe(200);
    // Another account is not touched by this one's attack.
    expect((await login(app, "x", "198.51.100.9", "other-agency")).status).toBe(400);
    const throttled = logs.records.filter((r) => r.msg === "login.account_throttled");
    expect(throttled).toEqual([{ level: "warn", msg: "login.account_throttled", username: AGENCY.username, client: address(10), retryAfterSeconds: 60 }]);
    expect(logs.records.filter((r) => r.msg === "login.failed" && r["username"] === AGENCY.username)).toHaveLength(10);
    expect(logs.records.filter((r) => r.msg === "login.limited")).toHaveLength(0);
  });

  it("the account's delay grows as the attack goes on (a minute, then 15 min): an hour of one guess per second gets at most 54 checked", async () => {
    const clock = manualClock();
    const { app, logs } = testApp({ clock, configInput: PROXIED });
    const home = "198.51.100.2";
    expect((await login(app, AGENCY.password, home)).status).toBe(200);
    const waits = new Set<number>();
    let checked = 0;
    let refused = 0;
    for (let second = 0; second < 3_600; second++) {
      const res = await login(app, `guess-${second}`, address(second));
      if (res.status === 429) {
        refused++;
        waits.add(Number(res.headers.get("retry-after")));
      } else checked++;
      // Every ten minutes the real user logs in from home, undisturbed.
      if (second % 600 === 0) expect((await login(app, AGENCY.password, home)).status).toBe(200);
      clock.advance(1_000);
    }
    // 50 in the sustained budget, plus one every 15 min: the short-term budget alone would have let 70 through.
    expect(checked).toBeGreaterThanOrEqual(50);
    expect(checked).toBeLessThanOrEqual(54);
    expect(Math.min(...waits)).toBeLessThanOrEqual(60);
    expect(Math.max(...waits)).toBeGreaterThan(600);
    // One line when it begins, then one per 5 min with what was refused since: about 12 in the hour.
    const lines = logs.records.filter((r) => r.msg === "login.account_throttled");
    expect(lines.length).toBeGreaterThanOrEqual(10);
    expect(lines.length).toBeLessThanOrEqual(13);
    const summarised = lines.slice(1).reduce((sum, r) => sum + (r["refused"] as number), 0);
    expect(summarised).toBeLessThanOrEqual(refused);
    expect(summarised).toBeGreaterThan(refused - 400);
    expect(lines.at(-1)).toMatchObject({ level: "warn", username: AGENCY.username, refused: expect.any(Number), clients: expect.any(Number), sinceMs: expect.any(Number) });
  });

  it("a new address with the right password waits while the account is under attack, then gets in once the delay is over", async () => {
    const clock = manualClock();
    const { app } = testApp({ clock, configInput: PROXIED });
    for (let i = 0; i < 10; i++) expect((await login(app, `guess-${i}`, address(i))).status).toBe(400);
    const fresh = "198.51.100.77";
    const held = await login(app, AGENCY.password, fresh);
    expect(held.status).toBe(429);
    const wait = Number(held.headers.get("retry-after"));
    expect(wait).toBeLessThanOrEqual(60);
    clock.advance(wait * 1_000);
    expect((await login(app, AGENCY.password, fresh)).status).toBe(200);
    // Known from now on: the attack that goes on does not hold it back any more.
    for (let i = 10; i < 30; i++) await login(app, `guess-${i}`, address(i));
    expect((await login(app, AGENCY.password, fresh)).status).toBe(200);
  });

  it("concurrent guesses from many addresses cannot slip past the account's budget together", async () => {
    const { app } = testApp({ clock: manualClock(), configInput: PROXIED });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => login(app, `guess-${i}`, address(i))));
    expect(answers.filter((r) => r.status === 400)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(190);
  });

  it("an address is remembered for limits.login.rememberAddressSeconds after its last success", async () => {
    const clock = manualClock();
    const { app } = testApp({ clock, configInput: { ...PROXIED, limits: { login: { rememberAddressSeconds: 3_600 } } } });
    const home = "198.51.100.2";
    expect((await login(app, AGENCY.password, home)).status).toBe(200);
    clock.advance(3_000_000);
    expect((await login(app, AGENCY.password, home)).status).toBe(200); // renews the mark
    clock.advance(3_000_000);
    for (let i = 0; i < 10; i++) await login(app, `guess-${i}`, address(i));
    expect((await login(app, AGENCY.password, home)).status).toBe(200);
    clock.advance(3_700_000);
    for (let i = 10; i < 100; i++) await login(app, `guess-${i}`, address(i));
    expect((await login(app, AGENCY.password, home)).status).toBe(429); // forgotten: now a new address
  });
});
