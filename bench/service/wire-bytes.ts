import net from "node:net";

/** What {@link wireBytes} read. */
export interface WireAnswer {
  readonly status: number;
  /** Every byte of the answer: status line, headers and body. */
  readonly bytes: number;
  readonly etag: string | undefined;
}

/**
 * Sends one POST over a fresh socket (`Connection: close`) and counts the bytes of the whole answer as they
 * arrive, headers included: what a poll costs on the wire.
 */
export const wireBytes = (origin: string, path: string, headers: Record<string, string>, body: string): Promise<WireAnswer> =>
  new Promise((resolve, reject) => {
    const url = new URL(origin);
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.once("error", reject);
    socket.once("end", () => {
      const all = Buffer.concat(chunks);
      const head = all.toString("latin1", 0, Math.max(0, all.indexOf("\r\n\r\n")));
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const etag = /^etag: *(.+)$/im.exec(head)?.[1]?.trim();
      resolve({ status, bytes: all.length, etag });
    });
    const lines = [
      `POST ${path} HTTP/1.1`,
      `Host: ${url.host}`,
      "Connection: close",
      `Content-Length: ${Buffer.byteLength(body)}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
  });
