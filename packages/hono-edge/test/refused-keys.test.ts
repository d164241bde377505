import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { API_KEY, NOW, post, QUERY, testApp } from "./support/app.js";

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

const from = (address: string, key: string) => ({ Authorization: `Bearer ${key}`, "X-Forwarded-For": address });
const randomKey = () => `guess-${crypto.randomUUID()}`;

describe("guessing API keys from one address", () => {
  it("500 random keys from one address: 30 get 401, the rest 429 with Retry-After; the budget refills; another address and valid keys are not held back", async () => {
    const { app } = testApp({ configInput: { http: { trustedProxyHeader: "x-forwarded-for" } } });
    const statuses: number[] = [];
    for (let i = 0; i < 500; i++) statuses.push((await post(app, "/api/ConsultaAereo/Consultar", QUERY, from("203.0.113.7", randomKey()))).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(470);
    const refused = await post(app, "/api/ConsultaAereo/Consultar", QUERY, from("203.0.113.7", randomKey()));
    expect([refused.status, refused.headers.get("retry-after")]).toEqual([429, "2"]);

    // Another address guesses on its own budget; a valid key from the guessing address is still served.
    expect((await post(app, "/api/ConsultaAereo/Consultar", QUERY, from("198.51.100.9", randomKey()))).status).toBe(401);
    expect((await post(app, "/api/ConsultaAereo/Consultar", QUERY, from("198.51.100.9", API_KEY))).status).toBe(200);
    await vi.advanceTimersByTimeAsync(2_000); // one token back
    expect((await post(app, "/api/ConsultaAereo/Consultar", QUERY, from("203.0.113.7", randomKey()))).status).toBe(401);
    expect((await post(app, "/api/ConsultaAereo/Consultar", QUERY, from("203.0.113.7", randomKey()))).status).toBe(429);
  });
});
