import { createRequire } from "node:module";
import { BENCH_KEY } from "./service-process.js";

// undici is a dependency of @voar/http-adapter, resolved from there. Its `request` costs the load generator far
// less per request than `fetch`, so the latencies measured are the service's, not the client's own queue.
const undici = createRequire(new URL("../../packages/http-adapter/package.json", import.meta.url))("undici") as typeof import("undici");

/** A search request body (Mode A or B, one way or round trip). */
export type SearchBody = Record<string, unknown>;

/** What one round of concurrent searches measured. */
export interface SearchRound {
  readonly searches: number;
  readonly requests: number;
  /** Answers that were not 200, and requests that failed. */
  readonly errors: number;
  readonly wallMs: number;
  /** Latency of every request, in ms. */
  readonly latencies: readonly number[];
  /** Latency of the polls by `Token` alone (every request after each search's first), in ms. */
  readonly pollLatencies: readonly number[];
  /** Latency of each search's first request (the query, which starts the search), in ms. */
  readonly startLatencies: readonly number[];
  /** Offers per search at completion (sum of `Progresso.Fontes[].Itens`). */
  readonly offers: readonly number[];
  /** What the first error was, to print beside the count. */
  readonly firstError?: string | undefined;
  /** Errors counted by what they were (status and code, or the failure's message). */
  readonly errorKinds: Readonly<Record<string, number>>;
  /** 429s of admission control, waited out by their `Retry-After` and sent again (not errors). */
  readonly shed: number;
}

const HEADERS = { Authorization: `Bearer ${BENCH_KEY}`, "Content-Type": "application/json" };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `YYYY-MM-DD`, `days` from now. */
export const dayOffset = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Busy domestic routes of the simulator. */
export const BUSY_ROUTES: readonly (readonly [string, string])[] = [
  ["CNF", "GRU"], ["GRU", "POA"], ["BSB", "SSA"], ["GIG", "BSB"], ["CNF", "SDU"], ["REC", "BSB"], ["GRU", "REC"], ["CWB", "GIG"],
  ["POA", "BSB"], ["FOR", "GRU"],
];

/** Routes whose Mode B round trip finds the most offers in the simulator (the median is printed with the figures). */
export const LARGE_ROUTES: readonly (readonly [string, string])[] = [
  ["REC", "BSB"], ["BSB", "REC"], ["CNF", "REC"], ["GIG", "REC"], ["REC", "CNF"], ["GIG", "BSB"], ["BSB", "GIG"], ["BSB", "CNF"],
  ["CNF", "BSB"], ["REC", "GIG"],
];

/**
 * `n` distinct queries: the routes times as many departure dates as needed, from `firstDay` days ahead;
 * `extra` adds members (`Companhia`), `returnAfterDays` a `Volta`.
 */
export const distinctQueries = (n: number, firstDay: number, o: { routes?: typeof BUSY_ROUTES; extra?: SearchBody; returnAfterDays?: number } = {}): SearchBody[] => {
  const routes = o.routes ?? BUSY_ROUTES;
  return Array.from({ length: n }, (_, i) => {
    const [origem, destino] = routes[i % routes.length]!;
    const day = firstDay + Math.floor(i / routes.length);
    const volta = o.returnAfterDays === undefined ? {} : { Volta: dayOffset(day + o.returnAfterDays) };
    return { Origem: origem, Destino: destino, Ida: dayOffset(day), ...volta, ...o.extra };
  });
};

/**
 * Runs the searches at once, each like a client: the request, then polls by `Token` every `pollMs` until
 * `Completed`. Every request is timed; a non-200 answer or a failed request counts as an error and ends
 * that search. Bounded: a search gives up after `maxPolls` polls (counted as an error).
 */
export const searchRound = async (
  baseUrl: string,
  queries: readonly SearchBody[],
  pollMs: number,
  o: { readonly maxPolls?: number; readonly startSpreadMs?: number; readonly answers?: string[][] } = {},
): Promise<SearchRound> => {
  const maxPolls = o.maxPolls ?? 600;
  const spread = o.startSpreadMs ?? 0;
  const latencies: number[] = [];
  const pollLatencies: number[] = [];
  const startLatencies: number[] = [];
  const offers: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const errorKinds: Record<string, number> = {};
  const fail = (why: string) => {
    errors++;
    firstError ??= why;
    errorKinds[why] = (errorKinds[why] ?? 0) + 1;
  };
  const pool = new undici.Pool(baseUrl, { connections: queries.length, pipelining: 1 });
  const path = "/api/ConsultaAereo/Consultar";
  let shed = 0;
  const request = async (body: SearchBody, answers?: string[]): Promise<Record<string, unknown> | undefined> => {
    const t0 = performance.now();
    try {
      let res = await pool.request({ path, method: "POST", headers: HEADERS, body: JSON.stringify(body) });
      // Admission control said "not now" (429 with Retry-After): a client waits as told and asks again.
      for (let attempt = 0; res.statusCode === 429 && attempt < 30; attempt++) {
        shed++;
        await res.body.text();
        await sleep(Number(res.headers["retry-after"] ?? 1) * 1_000);
        res = await pool.request({ path, method: "POST", headers: HEADERS, body: JSON.stringify(body) });
      }
      const text = await res.body.text();
      answers?.push(text);
      // Timed to the answer's last byte; parsing it is the client's own work.
      const ms = performance.now() - t0;
      latencies.push(ms);
      ("Token" in body ? pollLatencies : startLatencies).push(ms);
      const json = JSON.parse(text) as Record<string, unknown>;
      if (res.statusCode === 200) return json;
      fail(`HTTP ${res.statusCode} ${(json["Erro"] as { Codigo?: string } | null)?.Codigo ?? ""}`.trim());
    } catch (e) {
      const ms = performance.now() - t0;
      latencies.push(ms);
      ("Token" in body ? pollLatencies : startLatencies).push(ms);
      const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : "";
      fail(e instanceof Error ? `${e.message}${cause}` : String(e));
    }
    return undefined;
  };
  const one = async (query: SearchBody, i: number) => {
    if (spread > 0) await sleep((i * spread) / queries.length);
    const answers = o.answers ? (o.answers[i] = []) : undefined;
    let answer = await request(query, answers);
    for (let i = 0; answer && answer["Completed"] !== true; i++) {
      if (i === maxPolls) return fail(`not complete after ${maxPolls} polls`);
      await sleep(pollMs);
      answer = await request({ Token: answer["Token"] }, answers);
    }
    const sources = (answer?.["Progresso"] as { Fontes?: { Itens: number }[] } | undefined)?.Fontes ?? [];
    offers.push(sources.reduce((n, s) => n + s.Itens, 0));
  };
  const t0 = performance.now();
  await Promise.all(queries.map(one));
  await pool.close();
  return { searches: queries.length, requests: latencies.length, errors, wallMs: performance.now() - t0, latencies, pollLatencies, startLatencies, offers, firstError, errorKinds, shed };
};

/** The `p`-th percentile (0-100) of samples. */
export const percentile = (samples: readonly number[], p: number): number => {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};
