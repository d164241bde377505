/**
 * The HTTP recorder: wraps a `fetch` (an upstream reached over HTTP, in process or over a socket) and notes
 * every exchange with its timing, in the fixture format. Credentials never reach a fixture: `Authorization`
 * is redacted and so is a login's password.
 */
import type { FetchLike } from "../fake-upstream/in-process-fetch.js";
import type { Exchange, RecordedRequest, RecordedResponse } from "../fixtures/fixture-schema.js";

/** A recording `fetch` and what it recorded. */
export interface FetchRecorder {
  /** Use this `fetch` instead of the wrapped one. */
  readonly fetch: FetchLike;
  /** The exchanges so far, in the order the requests were sent. */
  exchanges(): Exchange[];
}

/** Options of {@link recordFetch}. */
export interface RecordFetchOptions {
  /** The clock, in ms. Default `Date.now` (fake timers move it). */
  readonly now?: (() => number) | undefined;
}

const REQUEST_HEADERS = ["content-type", "origin", "accept", "authorization"];
const RESPONSE_HEADERS = ["content-type", "retry-after", "www-authenticate"];

const pick = (headers: Headers, names: readonly string[]): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) out[name] = name === "authorization" ? value.replace(/^(\w+)\s+.*$/, "$1 ***") : value;
  }
  return out;
};

const recordRequest = async (request: Request, path: string): Promise<RecordedRequest> => {
  const text = request.body ? await request.clone().text() : "";
  const headers = pick(request.headers, REQUEST_HEADERS);
  if (text === "") return { method: request.method, path, headers };
  if ((headers["content-type"] ?? "").includes("application/x-www-form-urlencoded")) {
    const form = Object.fromEntries(new URLSearchParams(text));
    if ("password" in form) form.password = "***";
    return { method: request.method, path, headers, form };
  }
  return { method: request.method, path, headers, json: JSON.parse(text) as unknown };
};

/** Reads a body to its end, or to where it broke. */
const readBody = async (response: Response): Promise<{ text: string; broken: boolean }> => {
  if (!response.body) return { text: "", broken: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), broken: false };
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // The break itself is what gets recorded (as a fault); the caller sees it again on the returned body.
    return { text, broken: true };
  }
};

const failingBody = (text: string): ReadableStream<Uint8Array> =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      if (text !== "") controller.enqueue(new TextEncoder().encode(text));
    },
    pull(controller) {
      controller.error(new TypeError("terminated: the connection broke while the body was read"));
    },
  });

/**
 * Wraps a `fetch` to record every exchange.
 *
 * @example
 * const recorder = recordFetch(upstream.fetch);
 * await driveSearch({ fetch: recorder.fetch, baseUrl, ... });
 * writeFixture(dir, { scenario, description, recordedFrom, query, exchanges: recorder.exchanges() });
 */
export const recordFetch = (inner: FetchLike, options: RecordFetchOptions = {}): FetchRecorder => {
  const now = options.now ?? Date.now;
  const started = now();
  const log: Exchange[] = [];
  const recorded: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const atMs = now() - started;
    const recordedRequest = await recordRequest(request, `${url.pathname}${url.search}`);
    const done = (response: RecordedResponse) => log.push({ atMs, request: recordedRequest, response });
    let response: Response;
    try {
      response = await inner(request);
    } catch (error) {
      done({ delayMs: now() - started - atMs, status: 0, headers: {}, fault: "reset" });
      throw error;
    }
    const delayMs = now() - started - atMs;
    const headers = pick(response.headers, RESPONSE_HEADERS);
    const { text, broken } = await readBody(response);
    if (broken) {
      done(text === "" ? { delayMs, status: 0, headers: {}, fault: "reset" } : { delayMs, status: response.status, headers, text, fault: "truncated" });
      return new Response(failingBody(text), { status: response.status, headers: response.headers });
    }
    let json: unknown;
    let isJson = false;
    try {
      json = JSON.parse(text);
      isJson = true;
    } catch {
      isJson = false; // not JSON: recorded as text below
    }
    done(isJson ? { delayMs, status: response.status, headers, json } : { delayMs, status: response.status, headers, text });
    return new Response(text, { status: response.status, headers: response.headers });
  };
  // Answers may come back out of order; a fixture lists exchanges by the time their request was sent.
  return { fetch: recorded, exchanges: () => [...log].sort((a, b) => a.atMs - b.atMs) };
};
