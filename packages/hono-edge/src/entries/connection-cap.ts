import type { Server } from "node:http";
import type { Socket } from "node:net";
import { TooManyConnections } from "../errors/edge-errors.js";
import { rawErrorAnswer } from "./node-rejections.js";

/**
 * The address a connection is counted under: an IPv4 address as is (also when written as IPv6, `::ffff:a.b.c.d`),
 * an IPv6 address by its /64 prefix (`2001:db8:1:2::/64`), since one client commonly holds a whole /64 and
 * could otherwise open each connection from another address of it.
 */
export const connectionGroup = (address: string): string => {
  const plain = (address.split("%")[0] ?? address).toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(plain);
  if (mapped) return mapped[1]!;
  if (!plain.includes(":")) return plain;
  const [head = "", tail] = plain.split("::", 2);
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = tail === undefined ? 0 : Math.max(0, 8 - left.length - right.length);
  const groups = [...left, ...Array.from({ length: zeros }, () => "0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
};

/** Options of {@link capConnectionsPerAddress}. */
export interface ConnectionCapOptions {
  /** Connections one address (an IPv6 /64) may hold open at once. */
  readonly max: number;
  /** Hears of each refused connection, with its address group (for a summarised log). */
  readonly onRefused?: ((group: string) => void) | undefined;
}

/**
 * Caps the connections each client address holds open at once, so that one client holding idle sockets
 * cannot take every connection of the server (`maxConnections`) from everybody else. Counted at the socket,
 * by its peer address: the only address there is before a request is read (behind a reverse proxy, every
 * connection comes from the proxy). A connection over the cap is answered at once with 429 `LIMITE_EXCEDIDO`
 * (`Retry-After: 1`, `Connection: close`) and closed, as Node answers its own refusals: written, then closed,
 * without waiting for the client, so that refused connections never hold a place themselves.
 */
export const capConnectionsPerAddress = (server: Server, options: ConnectionCapOptions): void => {
  const open = new Map<string, number>();
  const refused = new TooManyConnections(options.max);
  // Before Node's own listener, so a refused socket never gets an HTTP parser.
  server.prependListener("connection", (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return; // already gone: nothing to count
    const group = connectionGroup(address);
    const held = open.get(group) ?? 0;
    if (held >= options.max) {
      socket.on("error", () => undefined);
      socket.write(rawErrorAnswer(refused));
      socket.destroy();
      options.onRefused?.(group);
      return;
    }
    open.set(group, held + 1);
    socket.once("close", () => {
      const left = (open.get(group) ?? 1) - 1;
      if (left > 0) open.set(group, left);
      else open.delete(group);
    });
  });
};
