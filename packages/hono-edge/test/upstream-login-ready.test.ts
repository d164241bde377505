/**
 * `/ready` and the log as an operator reads them while the upstream's logins fail: a failing `/Token` is the
 * upstream's passing trouble (ready, saying when the next login may go); refused credentials are the
 * deployment's configuration (503 `misconfigured`, naming what to fix), said once in the log at `error`.
 */
import { describe, expect, it } from "vitest";
import type { LoginState } from "@voar/http-adapter/fetch";
import { logLoginState } from "../src/sources/upstream-login.js";
import { memoryLogger, testApp } from "./support/app.js";

const readyWith = async (state: LoginState) => {
  const { app } = testApp({ upstreamLogin: () => state });
  const res = await app.request("/ready");
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe("the upstream's logins in /ready and the log", () => {
  it("ready while they work, as it was", async () => {
    expect(await readyWith({ state: "ok" })).toEqual({ status: 200, body: { status: "ready" } });
  });

  it("still ready while /Token fails, saying why and when the next login may go", async () => {
    expect(await readyWith({ state: "failing", detail: "HTTP 500", retryAfterMs: 29_500 })).toEqual({
      status: 200,
      body: { status: "ready", upstream: { login: "failing", detail: "HTTP 500", retryAfterSeconds: 30 } },
    });
  });

  it("not ready while the upstream refuses the credentials: configuração, named", async () => {
    const { status, body } = await readyWith({ state: "refused", detail: "login recusado pelo fornecedor (HTTP 400, invalid_grant): credenciais ou configuração" });
    expect(status).toBe(503);
    expect(body).toEqual({ status: "misconfigured", upstream: { login: "refused", detail: expect.stringContaining("invalid_grant"), fix: expect.stringContaining("VOAR_UPSTREAM_PASSWORD") } });
  });

  it("logs each change once, at the level it deserves", () => {
    const { logger, records } = memoryLogger();
    const log = logLoginState(logger);
    log({ state: "failing", detail: "HTTP 500", retryAfterMs: 30_000 });
    log({ state: "refused", detail: "login recusado pelo fornecedor (HTTP 400, invalid_grant): credenciais ou configuração" });
    log({ state: "ok" });
    expect(records.map((r) => [r.level, r.msg])).toEqual([
      ["warn", "upstream.login_failing"],
      ["error", "upstream.credentials_refused"],
      ["info", "upstream.login_ok"],
    ]);
    expect(records[1]).toMatchObject({ fix: expect.stringMatching(/^configuração/) });
  });
});
