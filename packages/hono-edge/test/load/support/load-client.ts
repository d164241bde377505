/**
 * A load client in a process of its own, from one loopback address of its own (`LOCAL`, e.g. 127.0.0.7), as a
 * client machine behind it would be: `ROLE=stream` opens `COUNT` SSE streams of one query (`QUERY`) and reads
 * each to its end; `ROLE=poll` starts `COUNT` distinct searches (from day `FIRST_DAY`) and polls each by `Token`
 * at the `ProximaConsultaMs` hint until `Completed`; `ROLE=health` asks `GET /health` of every origin every 200 ms
 * for `DURATION_MS` (a liveness probe, timed apart from the test's own busy process). Requests go to the `ORIGINS`
 * in turn (no stickiness). A 429
 * is waited out by its `Retry-After` and sent again; anything else is counted. Prints one JSON line of results.
 */
import http from "node:http";

const env = process.env;
const origins = env["ORIGINS"]!.split(",");
const local = env["LOCAL"]!;
const count = Number(env["COUNT"]);
const key = env["KEY"]!;
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly text: string;
}

const post = (origin: string, path: string, body: unknown): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const url = new URL(path, origin);
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", agent, localAddress: local, timeout: 90_000, headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}`, "Content-Length": Buffer.byteLength(text) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"] as string | undefined, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("client timeout")));
    req.on("error", reject);
    req.end(text);
  });

const results = {
  role: env["ROLE"],
  local,
  done: 0,
  /** Streams that ended with a Completed snapshot with results, or searches polled to Completed. */
  complete: 0,
  statuses: {} as Record<string, number>,
  /** 429s, and how many of them carried Retry-After. */
  refused: 0,
  refusedWithRetryAfter: 0,
  /** Searches or streams refused at least once that then completed. */
  refusedThenComplete: 0,
  unavailableEvents: 0,
  failures: {} as Record<string, number>,
  pollMs: [] as number[],
};
const count1 = (bag: Record<string, number>, k: string) => void (bag[k] = (bag[k] ?? 0) + 1);
let turn = 0;
const nextOrigin = () => origins[turn++ % origins.length]!;

/** Sends until an answer other than 429 (waiting out each 429's Retry-After); whether any was refused. */
const sendPastRefusals = async (path: string, body: unknown): Promise<{ answer: Answer; wasRefused: boolean }> => {
  let wasRefused = false;
  for (;;) {
    const t0 = performance.now();
    const answer = await post(nextOrigin(), path, body);
    if ("Token" in (body as object)) results.pollMs.push(performance.now() - t0);
    count1(results.statuses, String(answer.status));
    if (answer.status !== 429) return { answer, wasRefused };
    wasRefused = true;
    results.refused++;
    if (answer.retryAfter !== undefined) results.refusedWithRetryAfter++;
    await sleep(Number(answer.retryAfter ?? 1) * 1_000);
  }
};

const stream = async (query: unknown) => {
  const { answer, wasRefused } = await sendPastRefusals("/api/ConsultaAereo/Stream", query);
  if (answer.status !== 200) return count1(results.failures, `stream HTTP ${answer.status}`);
  const events = answer.text.split("\n\n").filter((b) => b.includes("data:"));
  const datas = events.map((b) => JSON.parse(b.slice(b.indexOf("data:") + 5)) as { Completed?: boolean; Success?: boolean; TotalItens?: number; Erro?: { Codigo?: string } | null });
  results.unavailableEvents += datas.filter((d) => d.Erro?.Codigo === "INDISPONIVEL").length;
  const last = datas.at(-1);
  if (last?.Completed === true && last.Success === true && (last.TotalItens ?? 0) > 0) {
    results.complete++;
    if (wasRefused) results.refusedThenComplete++;
  } else count1(results.failures, `stream ended ${JSON.stringify(last?.Erro ?? last?.Completed ?? "empty")}`);
};

const ROUTES = [["CNF", "GRU"], ["GRU", "POA"], ["BSB", "SSA"], ["GIG", "BSB"], ["CNF", "SDU"], ["REC", "BSB"], ["GRU", "REC"], ["CWB", "GIG"], ["POA", "BSB"], ["FOR", "GRU"]] as const;
const dayAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const search = async (i: number) => {
  const [origem, destino] = ROUTES[i % ROUTES.length]!;
  const query = { Origem: origem, Destino: destino, Ida: dayAhead(Number(env["FIRST_DAY"]) + Math.floor(i / ROUTES.length)) };
  const first = await sendPastRefusals("/api/ConsultaAereo/Consultar", query);
  let answer = first.answer;
  for (let polls = 0; polls < 400; polls++) {
    if (answer.status !== 200) return count1(results.failures, `search HTTP ${answer.status}`);
    const body = JSON.parse(answer.text) as { Completed: boolean; Token: string; Progresso: { ProximaConsultaMs: number } };
    if (body.Completed) {
      results.complete++;
      if (first.wasRefused) results.refusedThenComplete++;
      return;
    }
    await sleep(body.Progresso.ProximaConsultaMs);
    answer = (await sendPastRefusals("/api/ConsultaAereo/Consultar", { Token: body.Token })).answer;
  }
  count1(results.failures, "not complete after 400 polls");
};

/**
 * The liveness probe: every origin's `/health` every 200 ms for `DURATION_MS`, and `/ready` beside it (an answer of the
 * app, through its middleware and a Redis PING), each with a 10 s timeout: their latencies and failures.
 */
const probeHealth = async () => {
  const until = Date.now() + Number(env["DURATION_MS"]);
  const times: Record<string, number[]> = { health: [], ready: [] };
  const failures: Record<string, number> = { health: 0, ready: 0 };
  const probe = async (origin: string, path: "health" | "ready") => {
    const t0 = performance.now();
    try {
      const res = await fetch(`${origin}/${path}`, { signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      if (path === "health" && res.status !== 200) failures[path]!++;
      else times[path]!.push(performance.now() - t0);
    } catch {
      failures[path]!++;
    }
  };
  // Each origin and path probed on its own, every 200 ms after its answer: a slow /ready never holds /health back.
  await Promise.all(
    origins.flatMap((origin) =>
      (["health", "ready"] as const).map(async (path) => {
        while (Date.now() < until) {
          await probe(origin, path);
          await sleep(200);
        }
      }),
    ),
  );
  const q = (xs: number[], f: number) => Math.round([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(f * xs.length))] ?? 0);
  console.log(JSON.stringify({ role: "health", probes: times.health!.length + failures.health!, failures: failures.health, readyFailures: failures.ready, p50: q(times.health!, 0.5), slowestMs: q(times.health!, 1), readyP50: q(times.ready!, 0.5), readySlowestMs: q(times.ready!, 1) }));
};
if (env["ROLE"] === "health") {
  await probeHealth();
  process.exit(0);
}

const startAt = Number(env["START_AT"] ?? Date.now());
await sleep(Math.max(0, startAt - Date.now()));
const query = env["QUERY"] ? (JSON.parse(env["QUERY"]) as unknown) : undefined;
await Promise.all(
  Array.from({ length: count }, async (_, i) => {
    // Spread over a second, as independent clients arrive; failures of the client itself are counted too.
    await sleep((i * 1_000) / count);
    try {
      await (env["ROLE"] === "stream" ? stream(query) : search(i));
    } catch (e) {
      count1(results.failures, e instanceof Error ? e.message : String(e));
    }
    results.done++;
  }),
);
agent.destroy();
const sorted = [...results.pollMs].sort((a, b) => a - b);
const p = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
// `RAW=1` (the bench): every poll's latency too, so that percentiles are taken over every client's polls together.
console.log(JSON.stringify({ ...results, pollMs: env["RAW"] === "1" ? sorted.map(Math.round) : undefined, polls: sorted.length, pollP50: p(0.5), pollP99: p(0.99) }));
