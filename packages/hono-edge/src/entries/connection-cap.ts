import type { IncomingMessage, Server, ServerResponse } from "node:http";
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

/** Options of {@link admitConnections}. */
export interface ConnectionAdmissionOptions {
  /** Connections open at once (`http.maxConnections`). */
  readonly maxConnections: number;
  /** Connections one address (an IPv6 /64) may hold open at once. */
  readonly perAddress: number;
  /**
   * Connections beyond `maxConnections` let in, when the server is full and fair to everyone, for liveness and
   * readiness probes only (`GET /health`, `GET /ready`): any other request on one is answered 429 and closed. Default 16.
   */
  readonly probeRoom?: number | undefined;
  /** Hears of each refused connection, with its address group and why (for a summarised log). */
  readonly onRefused?: ((group: string, reason: "address" | "full") => void) | undefined;
  /** Hears of each idle connection closed to make room for another address, with the group it was taken from. */
  readonly onEvicted?: ((group: string) => void) | undefined;
}

/** What the request listener needs to know of a connection: whether it was let in for probes only. */
export interface ConnectionAdmission {
  /** True for a connection let in beyond `maxConnections`, for `/health` and `/ready` only. */
  probesOnly(socket: Socket): boolean;
}

/**
 * Admits connections fairly, so that clients holding sockets open (idle, or sending their headers a byte at a time:
 * slow-loris) cannot shut the door on everybody else. Counted at the socket, by its peer address (the only address
 * there is before a request is read; behind a reverse proxy, every connection comes from the proxy):
 * - one address holds `perAddress` connections at most: more are answered 429 `LIMITE_EXCEDIDO` (`Retry-After: 1`,
 *   `Connection: close`) and closed at once, as Node answers its own refusals, so refused connections hold nothing;
 * - when `maxConnections` are open, a new connection takes the place of an idle one (no request being answered: a
 *   slow-loris socket, a keep-alive between requests) of the address that holds the most, if that address holds at
 *   least two more than the newcomer's: a new address always gets in, a crowd of addresses with a few connections
 *   each is never broken up for one of them;
 * - when no such place exists, up to `probeRoom` more connections are let in for liveness and readiness probes only,
 *   so `/health` and `/ready` are answered whoever fills the server; past that, the newcomer is refused.
 * Node's own timeouts (`headersTimeout`, `requestTimeout`, `keepAliveTimeout`) close the slow and the idle in any case.
 */
export const admitConnections = (server: Server, options: ConnectionAdmissionOptions): ConnectionAdmission => {
  const groups = new Map<string, Set<Socket>>();
  const busy = new WeakSet<Socket>();
  const probes = new WeakSet<Socket>();
  const probeRoom = options.probeRoom ?? 16;
  let open = 0;
  let probesOpen = 0;
  const perAddress = new TooManyConnections(options.perAddress);
  const full = new TooManyConnections(options.maxConnections);
  // Node's own cap only as a backstop: the places are counted here, and one taken back is only closed on the next turn.
  server.maxConnections = options.maxConnections + probeRoom + 64;

  /** An idle connection of the address that holds the most, if it holds at least two more than `held`. */
  const idleOfHeaviest = (held: number): { group: string; socket: Socket } | undefined => {
    let heaviest: [string, Set<Socket>] | undefined;
    for (const entry of groups) if (!heaviest || entry[1].size > heaviest[1].size) heaviest = entry;
    if (!heaviest || heaviest[1].size < held + 2) return undefined;
    for (const socket of heaviest[1]) if (!busy.has(socket)) return { group: heaviest[0], socket };
    return undefined;
  };

  const refuse = (socket: Socket, group: string, e: TooManyConnections, reason: "address" | "full") => {
    socket.on("error", () => undefined);
    socket.write(rawErrorAnswer(e));
    socket.destroy();
    options.onRefused?.(group, reason);
  };

  const take = (socket: Socket, group: string, probeOnly: boolean) => {
    let held = groups.get(group);
    if (!held) groups.set(group, (held = new Set()));
    held.add(socket);
    open += 1;
    if (probeOnly) {
      probes.add(socket);
      probesOpen += 1;
    }
    socket.once("close", () => {
      if (!held.delete(socket)) return;
      open -= 1;
      if (probeOnly) probesOpen -= 1;
      if (held.size === 0 && groups.get(group) === held) groups.delete(group);
    });
  };

  const forget = (socket: Socket) => {
    for (const [group, held] of groups) {
      if (!held.delete(socket)) continue;
      open -= 1;
      if (probes.has(socket)) probesOpen -= 1;
      if (held.size === 0) groups.delete(group);
      return;
    }
  };

  // Before Node's own listener, so a refused socket never gets an HTTP parser.
  server.prependListener("connection", (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return; // already gone: nothing to count
    const group = connectionGroup(address);
    const held = groups.get(group)?.size ?? 0;
    if (held >= options.perAddress) return refuse(socket, group, perAddress, "address");
    if (open - probesOpen < options.maxConnections) return take(socket, group, false);
    const idle = idleOfHeaviest(held);
    if (idle) {
      forget(idle.socket); // its place is the newcomer's now, though it closes on the next turn
      idle.socket.destroy();
      options.onEvicted?.(idle.group);
      return take(socket, group, false);
    }
    if (probesOpen < probeRoom) return take(socket, group, true);
    refuse(socket, group, full, "full");
  });
  // A connection answering a request is not idle: it is never the one closed to make room.
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    busy.add(socket);
    res.once("close", () => busy.delete(socket));
  });
  return { probesOnly: (socket) => probes.has(socket) };
};
