import { daysAhead, type Envelope } from "../../contract/contract-target.js";
import { API_KEY } from "../../support/app.js";
import { LISBON } from "./instance-setup.js";

/**
 * What clients see while the primary of a replicated Redis is killed under two instances: each search a client
 * of its own that polls by Token every 200 ms, on one instance then the other (a load balancer without
 * stickiness), until both instances answer it complete. Everything it saw is kept for the test to judge.
 */

type App = { request: (path: string, init?: RequestInit) => Response | Promise<Response> };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One answer a client got. */
export interface Seen {
  readonly at: number;
  readonly instance: 0 | 1;
  readonly status: number;
  readonly code: string | undefined;
  readonly retryable: boolean | undefined;
  readonly retryAfter: string | null;
  /** The fares (`rateToken`) of a 200 answer: every flight of the search (the query fits one page). */
  readonly rates: ReadonlySet<string>;
  readonly completed: boolean;
}

/** One search, as its client saw it. */
export interface ClientRun {
  readonly token: string;
  readonly seen: readonly Seen[];
}

const post = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

const ask = async (apps: readonly App[], instance: 0 | 1, body: unknown): Promise<{ seen: Seen; body: Envelope }> => {
  const res = await apps[instance]!.request("/api/ConsultaAereo/Consultar", post(body));
  const text = await res.text();
  const parsed = (text ? JSON.parse(text) : {}) as Envelope;
  const erro = parsed["Erro"] as { Codigo: string; Retentavel: boolean } | null | undefined;
  const data = parsed["Data"] as { flights: { segments: { rateToken: string }[] }[] }[] | undefined;
  const rates = new Set(res.status === 200 ? (data?.[0]?.flights ?? []).flatMap((f) => f.segments.map((s) => s.rateToken)) : []);
  return {
    seen: { at: Date.now(), instance, status: res.status, code: erro?.Codigo, retryable: erro?.Retentavel, retryAfter: res.headers.get("retry-after"), rates, completed: parsed["Completed"] === true },
    body: parsed,
  };
};

/** Opens `count` distinct searches, alternately on each instance; their Tokens. Every answer must be 200. */
export const openSearches = async (apps: readonly App[], count: number, firstDay = 30): Promise<string[]> =>
  Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const { seen, body } = await ask(apps, (i % 2) as 0 | 1, { ...LISBON, Ida: daysAhead(firstDay + i) });
      if (seen.status !== 200) throw new Error(`opening search ${i} answered ${seen.status} ${seen.code ?? ""}`);
      return body["Token"] as string;
    }),
  );

/**
 * Each Token's client, polling until both instances answered it complete (or `maxMs` passed). Runs until every
 * client is done; `during` runs meanwhile (the test's kill and wait for the failover).
 */
export const pollUntilComplete = async (apps: readonly App[], tokens: readonly string[], during: () => Promise<void>, maxMs = 60_000): Promise<ClientRun[]> => {
  const deadline = Date.now() + maxMs;
  const client = async (token: string, i: number): Promise<ClientRun> => {
    const seen: Seen[] = [];
    const done = new Set<number>();
    let turn = i % 2;
    while (done.size < 2 && Date.now() < deadline) {
      const instance = (turn++ % 2) as 0 | 1;
      const answer = (await ask(apps, instance, { Token: token, QuantidadePorPagina: 100 })).seen;
      seen.push(answer);
      if (answer.status === 200 && answer.completed) done.add(instance);
      await sleep(200);
    }
    return { token, seen };
  };
  const [runs] = await Promise.all([Promise.all(tokens.map(client)), during()]);
  return runs;
};

/** What the runs broke, one line each: an empty list when every search completed and nothing was lost. */
export const violations = (runs: readonly ClientRun[], failover: { readonly from: number; readonly to: number }): string[] => {
  const found: string[] = [];
  for (const { token, seen } of runs) {
    let before: ReadonlySet<string> = new Set();
    const all = new Set<string>();
    for (const s of seen) {
      if (s.status === 503) {
        if (s.code !== "INDISPONIVEL" || s.retryable !== true || s.retryAfter === null) found.push(`${token}: a 503 that is not a retryable INDISPONIVEL with Retry-After (${s.code})`);
        if (s.at < failover.from || s.at > failover.to) found.push(`${token}: a 503 ${s.at - failover.from} ms after the kill, outside the failover window (${failover.to - failover.from} ms)`);
        continue;
      }
      if (s.status !== 200) {
        found.push(`${token}: answered ${s.status} ${s.code ?? ""}`);
        continue;
      }
      const lost = [...before].filter((r) => !s.rates.has(r));
      if (lost.length > 0) found.push(`${token}: ${lost.length} offers shown before were missing at ${s.at - failover.from} ms after the kill (instance ${s.instance})`);
      for (const r of s.rates) all.add(r);
      before = s.rates;
    }
    const last = [0, 1].map((i) => [...seen].reverse().find((s) => s.instance === i && s.status === 200));
    if (!last.every((s) => s?.completed)) found.push(`${token}: not complete on both instances`);
    else if ([...all].some((r) => !last[0]!.rates.has(r) || !last[1]!.rates.has(r))) found.push(`${token}: the completed search lacks offers shown before`);
    else if (last[0]!.rates.size !== last[1]!.rates.size) found.push(`${token}: the instances answer the completed search differently`);
  }
  return found;
};
