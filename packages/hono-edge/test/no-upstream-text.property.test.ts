import {
  AuthError,
  BusinessError,
  HttpStatusError,
  MalformedPayload,
  PermissionDenied,
  RateLimited,
  SourceTimeout,
  TransportError,
  type SourceError,
} from "@voar/core";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { consultar, fastSources, NOW, post, QUERY, testApp } from "./support/app.js";
import { readStream } from "./support/sse.js";

/**
 * Fault scenarios: each simulated source fails (or not) with an error whose detail holds what an upstream
 * leaks: a secret-looking token, an undici error code, an internal URL, a .NET stack trace, the upstream's
 * own sentence. Whatever the mix, no answer a client gets (polls by query and by Token, and every SSE
 * event) contains any of it; the service's log does, with the search and source ids.
 */

const MODE_A = ["latam", "gol", "azul", "tap", "copa", "american", "iberia"];
const UNDICI = ["UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "ECONNRESET", "ENOTFOUND"];

/**
 * A leak of source `i`: a marker unique to that source (its index starts it, so no source's marker is another's
 * or inside one, even when shrinking makes their random parts equal) plus the kind of text around it, so the
 * assertion can look for it.
 */
const leakOf = (i: number) => fc
  .tuple(
    fc.constantFrom(...UNDICI),
    fc.stringMatching(/^[A-Za-z0-9]{6,12}$/),
    // Each text, and whether its marker stands where a credential does (then the log redacts it too).
    fc.constantFrom(
      [(code: string, s: string) => `${code}: other side closed token=SECRET-${s}`, true] as const,
      [(code: string, s: string) => `fetch failed (${code}) https://upstream.internal/api/ConsultaAereo/Consultar?access_token=SECRET-${s}`, true] as const,
      [(code: string, s: string) => `Erro ao validar permissoes da agência SECRET-${s}\n   at ConsultaPontos.ConsultaAereoRegra.Consultar() in /src/Regra.cs:line 43 ${code}`, false] as const,
      [(code: string, s: string) => `System.NullReferenceException: SECRET-${s} Object reference not set (${code})`, false] as const,
      [(code: string, s: string) => `Bearer eyJhbGciOiJIUzI1NiJ9.SECRET-${s}.sig ${code}`, true] as const,
    ),
  )
  .map(([code, s, [f, credential]]) => ({ text: f(code, `${i}x${s}`), marker: `SECRET-${i}x${s}`, code, credential }));

type Leak = { readonly text: string; readonly marker: string; readonly code: string; readonly credential: boolean };

/** One way a source fails, carrying the leaked text wherever the error has room for it. */
const failureOf = (kind: number, l: Leak): SourceError => {
  switch (kind) {
    case 0:
      return new TransportError({ detail: l.text });
    case 1:
      return new BusinessError({ detail: l.text });
    case 2:
      return new PermissionDenied({ detail: l.text });
    case 3:
      return new MalformedPayload({ detail: l.text });
    case 4:
      return new AuthError({ detail: l.text });
    case 5:
      return new HttpStatusError({ status: 500 });
    case 6:
      return new RateLimited({ retryAfterMs: 1_000 });
    case 7:
      return new SourceTimeout({ afterMs: 1_000 });
    default: {
      // Not a tagged error at all: a bug in a source, with its stack.
      const e = new Error(l.text);
      e.stack = `Error: ${l.text}\n    at upstream (/srv/app/SECRET-path.js:1:1)`;
      return e as unknown as SourceError;
    }
  }
};

const scenario = fc.record({
  // Per source: undefined = answers; else the failure kind, how many batches before it, and its leak.
  sources: fc.tuple(
    ...MODE_A.map((_, i) => fc.option(fc.record({ kind: fc.integer({ min: 0, max: 8 }), afterBatches: fc.integer({ min: 0, max: 1 }), leak: leakOf(i) }), { nil: undefined })),
  ),
  maxAttempts: fc.integer({ min: 1, max: 2 }),
});

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => vi.useRealTimers());

describe("no upstream text reaches a client", () => {
  it("over generated fault scenarios, polling and SSE answers hold none of the leaked text; the log holds it", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ sources, maxAttempts }) => {
        const failures = Object.fromEntries(
          MODE_A.flatMap((id, i) => {
            const f = sources[i];
            return f ? [[id, { error: failureOf(f.kind, f.leak), afterBatches: f.afterBatches }]] : [];
          }),
        );
        const failing = sources.flatMap((f) => (f ? [f] : []));
        const leaks = failing.map((f) => f.leak);
        const { app, logs } = testApp({ sources: fastSources({ failures }), configInput: { search: { maxAttempts } } });
        const answers: string[] = [];
        const first = await consultar(app, QUERY);
        answers.push(JSON.stringify(first.body));
        const stream = post(app, "/api/ConsultaAereo/Stream", QUERY);
        await vi.advanceTimersByTimeAsync(100);
        answers.push(JSON.stringify((await consultar(app, { Token: first.body.Token })).body));
        answers.push(...(await readStream(await stream)).map((e) => e.data ?? ""));
        const last = await consultar(app, { Token: first.body.Token });
        answers.push(JSON.stringify(last.body));
        expect(last.body.Completed).toBe(true);
        expect([200, 403, 502, 504]).toContain(last.status);
        const all = answers.join("\n");
        for (const l of leaks) {
          expect(all).not.toContain(l.marker);
          expect(all).not.toContain(l.code);
        }
        expect(all).not.toMatch(/StackTrace|\.cs:line|\bat \w+\.\w+|https?:\/\/upstream|access_token|Bearer /);
        // The detail is not lost: it is in the log, with the search and source ids; a credential in it is redacted.
        const logText = logs.text();
        // (kinds 5-7 carry no text of their own; the others carry the leak as their detail)
        for (const f of failing.filter((x) => x.kind <= 4 || x.kind === 8)) {
          if (f.leak.credential) expect(logText).not.toContain(f.leak.marker);
          else expect(logText).toContain(f.leak.marker);
        }
        for (const r of logs.records.filter((x) => x.msg === "search.source_failed")) {
          expect(r).toMatchObject({ searchId: first.body.Token, sourceId: expect.any(String), tag: expect.any(String) });
        }
      }),
      { numRuns: 25 },
    );
  });
});
