/**
 * One answer of the fake upstream, described as data (status, headers, body, delay, fault), and how it is
 * sent: late, whole, cut in the middle of the body, or not at all (the connection dropped).
 */
import type { Context } from "hono";

/** An answer of the fake upstream, before it is sent. */
export interface UpstreamReply {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** A JSON body. */
  readonly json?: unknown;
  /** A raw body, when the answer is not JSON. */
  readonly text?: string | undefined;
  /** Wait this long before answering (a slow upstream). Uses `setTimeout`, so fake timers control it. */
  readonly delayMs?: number | undefined;
  /** `reset`: the connection drops before any answer; `truncated`: it drops partway through the body. */
  readonly fault?: "reset" | "truncated" | undefined;
  /** Characters of the body sent before a `truncated` connection drops. Default half. */
  readonly truncateAt?: number | undefined;
  /** Every access token is revoked as this answer goes out (a recorded 401 replayed). */
  readonly revokeTokens?: boolean | undefined;
}

/** Waits on `setTimeout`, rejecting with the signal's reason when it aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** The body of a reply as text. */
export const replyText = (reply: UpstreamReply): string =>
  reply.text ?? (reply.json === undefined ? "" : JSON.stringify(reply.json));

/** The socket under a request served by `@hono/node-server`, found without importing Node. */
interface RawSocket {
  destroy(): void;
  end(): void;
}

const socketOf = (c: Context): RawSocket | undefined => {
  const env: unknown = c.env;
  if (typeof env !== "object" || env === null || !("incoming" in env)) return undefined;
  const socket: unknown = (env.incoming as { socket?: unknown } | undefined)?.socket;
  return typeof socket === "object" && socket !== null && "destroy" in socket && "end" in socket ? (socket as RawSocket) : undefined;
};

/**
 * A body that sends `prefix` (maybe empty) and then breaks, as a dropped connection does: over a socket,
 * the socket is ended (what was sent arrives, the rest never does); in process, the stream fails.
 */
const brokenBody = (prefix: string, socket: RawSocket | undefined): ReadableStream<Uint8Array> =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      if (prefix !== "") controller.enqueue(new TextEncoder().encode(prefix));
    },
    pull(controller) {
      if (!socket) return controller.error(new TypeError("connection reset by the fake upstream"));
      socket.end();
      controller.close();
    },
  });

/**
 * Sends a reply. A reset over a real socket (`@hono/node-server`) destroys it; in process (`app.request`)
 * the body fails before its first byte. A truncated body announces more bytes than it sends, then fails.
 */
export const sendReply = async (c: Context, reply: UpstreamReply): Promise<Response> => {
  if (reply.delayMs !== undefined && reply.delayMs > 0) {
    try {
      await sleep(reply.delayMs, c.req.raw.signal);
    } catch (e) {
      // The client gave up while the answer was held back: no one reads it, and thrown out of the handler the
      // abort would be logged by Hono as the app's own error (a stack trace in every test of a timeout).
      if (c.req.raw.signal.aborted) return new Response(null, { status: 499 });
      throw e;
    }
  }
  const text = replyText(reply);
  const headers = new Headers(reply.headers);
  if (!headers.has("content-type")) headers.set("content-type", reply.json === undefined ? "text/plain; charset=utf-8" : "application/json; charset=utf-8");
  if (reply.fault === "reset") {
    const socket = socketOf(c);
    socket?.destroy();
    return new Response(socket ? null : brokenBody("", undefined), { status: reply.status || 200, headers });
  }
  if (reply.fault === "truncated") {
    const sent = text.slice(0, reply.truncateAt ?? Math.floor(text.length / 2));
    headers.set("content-length", String(new TextEncoder().encode(text.length > sent.length ? text : `${text} `).byteLength));
    return new Response(brokenBody(sent, socketOf(c)), { status: reply.status, headers });
  }
  return new Response(text, { status: reply.status, headers });
};
