import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Options of {@link cutSlowReaders}. */
export interface SlowReadersOptions {
  /** Unread bytes (held by Node, beyond the kernel's buffer) that cut a stream seen above it at two checks in a row. */
  readonly maxBufferedBytes: number;
  /** How long a stream may hold unread bytes without its client taking any before it is cut. */
  readonly stalledMs: number;
  /** How often the streams are looked at. Default 1000. */
  readonly everyMs?: number | undefined;
  /** Hears of each stream cut, with its client's address. */
  readonly onCut?: ((client: string | undefined) => void) | undefined;
}

interface Watched {
  /** Unread bytes at the last check. */
  last: number;
  /** When the client last took bytes (or the stream had none waiting). */
  progressAt: number;
  /** Above the bound at the last check. */
  over: boolean;
}

/**
 * Cuts the event streams whose clients do not read them. A stream's writes wait for the socket to drain
 * (`@hono/node-server` follows backpressure), so a silent client holds one event and the socket's buffer, not
 * the whole stream; but those are a search's whole answer, held for as long as the client stays connected,
 * also after the stream's last event (Node never times out a write). A thousand silent clients of a big
 * search hold hundreds of megabytes. Every `everyMs`, one timer for every stream looks at each socket's unread
 * bytes: above `maxBufferedBytes` at two checks in a row with none taken meanwhile, or unread bytes none of which
 * were taken for `stalledMs`, the socket is destroyed (the stream ends as if the client left, and its memory goes).
 */
export const cutSlowReaders = (o: SlowReadersOptions) => {
  const watched = new Map<Socket, Watched>();
  let timer: ReturnType<typeof setInterval> | undefined;
  const check = () => {
    const now = Date.now();
    for (const [socket, w] of watched) {
      if (socket.destroyed) {
        watched.delete(socket);
        continue;
      }
      const unread = socket.writableLength;
      if (unread === 0 || unread < w.last) w.progressAt = now;
      const over = unread > o.maxBufferedBytes;
      const cut = (over && w.over && unread >= w.last) || (unread > 0 && now - w.progressAt >= o.stalledMs);
      w.last = unread;
      w.over = over;
      if (!cut) continue;
      watched.delete(socket);
      o.onCut?.(socket.remoteAddress);
      socket.destroy();
    }
    if (watched.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  return {
    /** Follows the stream answered on `outgoing` until its socket closes. */
    watch(outgoing: ServerResponse) {
      const socket = outgoing.socket;
      if (!socket || watched.has(socket)) return;
      watched.set(socket, { last: 0, progressAt: Date.now(), over: false });
      socket.once("close", () => watched.delete(socket));
      if (timer === undefined) {
        timer = setInterval(check, o.everyMs ?? 1_000);
        timer.unref();
      }
    },
    /** Stops looking (the server closed). */
    stop() {
      clearInterval(timer);
      timer = undefined;
      watched.clear();
    },
    /** Streams followed now. */
    get size() {
      return watched.size;
    },
  };
};
