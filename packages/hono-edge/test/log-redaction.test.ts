import { BusinessError, TransportError } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { REDACTED, redactRecord, redactText } from "../src/logging/log-redactor.js";
import { jsonLinesLogger, redactingLogger, type Logger, type LogRecord } from "../src/logging/logger.js";
import { consultar, fastSources, NOW, QUERY, testApp } from "./support/app.js";

/**
 * Texts as upstreams and libraries write them (made up here, in their shapes): each secret in them must be
 * gone from the log, and what helps an operator (the error, the host, the user name) must stay.
 */
const CASES: readonly { readonly name: string; readonly text: string; readonly secrets: readonly string[]; readonly kept: readonly string[] }[] = [
  {
    name: ".NET SqlException quoting its connection string",
    text: "System.Data.SqlClient.SqlException (0x80131904): Login failed for user 'svc_voos'. ConnectionString: Data Source=10.2.0.7,1433;Initial Catalog=Reservas;User ID=svc_voos;Password=Tr0ub4dor&3x!;MultipleActiveResultSets=True",
    secrets: ["Tr0ub4dor"],
    kept: ["Login failed for user 'svc_voos'", "Data Source=10.2.0.7,1433", "Password=[REDACTED];MultipleActiveResultSets=True"],
  },
  {
    name: "a connection string with Pwd= and an Azure storage key",
    text: "Driver={ODBC Driver 18};Server=db;Uid=app;Pwd=pa55word99; storage: DefaultEndpointsProtocol=https;AccountName=voar;AccountKey=q1w2e3r4t5y6u7i8o9p0+AbCdEf==;EndpointSuffix=core.windows.net",
    secrets: ["pa55word99", "q1w2e3r4t5y6u7i8o9p0"],
    kept: ["Uid=app", "AccountName=voar", "EndpointSuffix=core.windows.net"],
  },
  {
    name: "a Redis URL with user and password (ioredis, a config dump)",
    text: "Error: connect ETIMEDOUT while connecting to redis://voar:R3d1sS3cret@10.0.0.5:6379/0 (also rediss://:0nlyP4ss@cache.internal:6380)",
    secrets: ["R3d1sS3cret", "0nlyP4ss"],
    kept: ["connect ETIMEDOUT", "redis://voar:[REDACTED]@10.0.0.5:6379/0", "rediss://:[REDACTED]@cache.internal:6380"],
  },
  {
    name: "an HTTP URL with a token as user, and a token in the query string",
    text: "GET https://ghp_abcdefghijklmnop1234@git.example/repo failed; retry https://up.example/api/Voos?token=9f8e7d6c5b4a&Companhia=1",
    secrets: ["ghp_abcdefghijklmnop1234", "9f8e7d6c5b4a"],
    kept: ["git.example/repo", "up.example/api/Voos?token=[REDACTED]&Companhia=1"],
  },
  {
    name: "a header dump with Authorization, Cookie and an API key",
    text: "Request headers:\r\nAuthorization: Bearer 0a1b2c3d4e5f60718293a4b5c6d7e8f9\r\nCookie: .AspNetCore.Session=CfDJ8Abc123; ARRAffinity=77aa\r\nX-Api-Key: k-1234567890abcdef\r\nAccept: application/json",
    secrets: ["0a1b2c3d4e5f60718293a4b5c6d7e8f9", "CfDJ8Abc123", "77aa", "k-1234567890abcdef"],
    kept: ["Authorization: [REDACTED]", "Accept: application/json"],
  },
  {
    name: "an echoed login form and JSON login body",
    text: 'bad request: grant_type=password&username=agencia&password=s3nh4-s3cr3ta; body {"grant_type":"password","username":"agencia","password":"outr4 s3nh4"}',
    secrets: ["s3nh4-s3cr3ta", "outr4 s3nh4"],
    kept: ["grant_type=password&username=agencia&password=[REDACTED]", '"username":"agencia"', '"password":"[REDACTED]"'],
  },
  {
    name: "an OAuth answer quoted as escaped JSON inside an exception message",
    text: 'Unexpected token answer: {\\"access_token\\":\\"ZXlKMGVYQWlPaUpL.abc\\",\\"token_type\\":\\"bearer\\",\\"expires_in\\":86399,\\"refresh_token\\":\\"rt-55aa\\"}',
    secrets: ["ZXlKMGVYQWlPaUpL", "rt-55aa"],
    kept: ['\\"expires_in\\":86399'],
  },
  {
    name: "a JWT, a bearer credential and one of the service's own tokens in prose",
    text: "token rejected eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ2VuY2lhIn0.c2lnbmF0dXJlLWhlcmU sent as bearer AbCdEfGhIjKlMnOpQrSt== after voar.eyJzdWIiOiJhIn0x.c2lnbmF0dXJl",
    secrets: ["eyJhbGciOiJIUzI1NiJ9", "AbCdEfGhIjKlMnOpQrSt", "voar.eyJzdWIiOiJhIn0x"],
    kept: ["token rejected"],
  },
  {
    name: "passwords told in prose by an upstream's message (Portuguese and English)",
    text: "Falha no login da agência: minha senha é Tr0c4r@2026; tentei senha Abc123456 e pwd xYz-987. Senha do usuário: Qu4tr0Q; the password is sw0rdf1sh",
    secrets: ["Tr0c4r@2026", "Abc123456", "xYz-987", "Qu4tr0Q", "sw0rdf1sh"],
    kept: ["Falha no login da agência: minha senha é [REDACTED]", "Senha do usuário: [REDACTED]"],
  },
];

describe("redactText, on texts as upstreams and libraries write them", () => {
  it.each(CASES)("$name", ({ text, secrets, kept }) => {
    const out = redactText(text);
    for (const secret of secrets) expect(out).not.toContain(secret);
    for (const part of kept) expect(out).toContain(part);
    expect(out).toContain(REDACTED);
    expect(redactText(out)).toBe(out);
  });

  it("leaves text without secrets as it is", () => {
    for (const text of [
      "HTTP 502 from upstream: Bad Gateway",
      "O fornecedor recusou a consulta: Companhia 1 indisponível em 2026-03-20T00:00:00",
      "connect ECONNREFUSED 127.0.0.1:6379",
      "Basic authentication is not supported; bypass=false; author: Maria",
      "search.source_failed after 3 attempts (tokens left: 0)",
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });
});

describe("every log record is redacted on its way out", () => {
  it("redactRecord redacts nested strings, errors, and the whole value of a field named like a secret", () => {
    const record: LogRecord = {
      level: "warn",
      msg: "upstream.login_failed",
      password: "plain-pass",
      detail: { body: "password=abc123", list: ["Authorization: Basic dXNlcjpwYXNzd29yZA=="] },
      error: new Error("connect to redis://u:pw1234@h failed"),
      attempt: 2,
    };
    const out = redactRecord(record);
    expect(JSON.stringify(out)).not.toMatch(/plain-pass|abc123|dXNlcjpwYXNzd29yZA|pw1234/);
    expect(out).toMatchObject({ level: "warn", msg: "upstream.login_failed", password: REDACTED, attempt: 2, detail: { body: `password=${REDACTED}` } });
    expect(out["error"]).toContain(`redis://u:${REDACTED}@h`);
  });

  it("jsonLinesLogger writes redacted lines; a logger given to createApp is wrapped once, however often it is wrapped", () => {
    const lines: string[] = [];
    jsonLinesLogger((line) => lines.push(line)).log({ level: "error", msg: "x", detail: "User ID=sa;Password=hunter2;" });
    expect(lines).toHaveLength(1);
    const { time, ...rest } = JSON.parse(lines[0]!) as { time: string };
    // Every line leads with its time, ISO 8601 in UTC.
    expect(lines[0]!.startsWith(`{"time":"${time}",`)).toBe(true);
    expect(new Date(time).toISOString()).toBe(time);
    expect(rest).toEqual({ level: "error", msg: "x", detail: `User ID=sa;Password=${REDACTED};` });
    const inner: Logger = { log: vi.fn() };
    const once = redactingLogger(inner);
    expect(redactingLogger(once)).toBe(once);
  });
});

describe("an upstream's error detail reaches the log without its secrets", () => {
  beforeEach(() => vi.useFakeTimers({ now: NOW }));
  afterEach(() => vi.useRealTimers());

  it("search.source_failed keeps the error, not the connection string or the token it quoted", async () => {
    const failures = {
      latam: { error: new BusinessError({ detail: "SqlException: Server=tcp:db.interno,1433;User ID=voar;Password=Qw3rty!2026;Encrypt=True" }) },
      gol: { error: new TransportError({ detail: "POST https://api.example/v1/search?access_token=tk_live_51Hx9 failed: socket hang up" }) },
    };
    const { app, logs } = testApp({ sources: fastSources({ failures }) });
    expect((await consultar(app, QUERY)).status).toBe(200);
    await vi.advanceTimersByTimeAsync(60_000);
    const failed = logs.records.filter((r) => r.msg === "search.source_failed");
    expect(failed.map((r) => r["sourceId"]).sort()).toEqual(["gol", "latam"]);
    expect(logs.text()).not.toMatch(/Qw3rty|tk_live_51Hx9/);
    expect(failed.find((r) => r["sourceId"] === "latam")!["detail"]).toBe(`SqlException: Server=tcp:db.interno,1433;User ID=voar;Password=${REDACTED};Encrypt=True`);
    expect(failed.find((r) => r["sourceId"] === "gol")!["detail"]).toContain(`access_token=${REDACTED} failed: socket hang up`);
  });
});
