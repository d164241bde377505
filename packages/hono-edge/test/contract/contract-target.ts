/** A `fetch` over the app, wherever it runs: `app.request` in-process, or `fetch(base + path)` over a socket. */
export type FetchLike = (path: string, init?: RequestInit) => Promise<Response>;

/** What the contract suite runs against. */
export interface ContractTarget {
  readonly fetch: FetchLike;
  /** Waits between polls: a real sleep over a socket, fake time in-process. */
  readonly wait: (ms: number) => Promise<void>;
}

/** The API key every target is configured with (tenant `contract`). */
export const CONTRACT_API_KEY = "contract-api-key-0123456789";

/** Fast simulated sources, so that a search completes in well under a second. */
export const CONTRACT_LATENCY_MS = 300;

/**
 * The environment of a target: the service's `VOAR_*` settings plus the entries' own (port, simulator).
 * Every runtime entry reads it the same way; in-process tests load it with `loadConfig({ env })`.
 */
export const CONTRACT_ENV: Readonly<Record<string, string>> = {
  VOAR_API_KEYS: `contract:${CONTRACT_API_KEY}`,
  VOAR_RATE_LIMIT_CAPACITY: "100000",
  VOAR_RATE_LIMIT_REFILL_PER_SECOND: "100000",
  VOAR_SIMULATOR_LATENCY_MS: String(CONTRACT_LATENCY_MS),
  VOAR_HOSTNAME: "127.0.0.1",
  VOAR_PORT: "0",
};

/** A parsed envelope (the suite checks members by name). */
export type Envelope = Record<string, unknown>;

/** `YYYY-MM-DD`, `days` after today (UTC; far enough from the São Paulo date for any hour). */
export const daysAhead = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** POSTs a search request with the contract's key and parses the envelope. */
export const consultarVia = async (t: ContractTarget, body: unknown): Promise<{ status: number; body: Envelope }> => {
  const res = await t.fetch("/api/ConsultaAereo/Consultar", {
    method: "POST",
    headers: { Authorization: `Bearer ${CONTRACT_API_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Envelope };
};

/**
 * Repeats a request every `everyMs` until its answer is complete; every answer, oldest first. Bounded:
 * fails after `maxPolls` answers.
 */
export const pollUntilComplete = async (t: ContractTarget, body: unknown, everyMs = 100, maxPolls = 200) => {
  const answers: { status: number; body: Envelope }[] = [];
  for (let i = 0; i < maxPolls; i++) {
    const answer = await consultarVia(t, body);
    answers.push(answer);
    if (answer.status !== 200) throw new Error(`poll answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    if (answer.body["Completed"] === true) return answers;
    await t.wait(everyMs);
  }
  throw new Error(`the search did not complete within ${maxPolls} polls`);
};
