import { serveOnNode, type ServedOnNode } from "@voar/testing";

/** A running loopback server. */
export type Served = ServedOnNode;

/** Serves a fetch handler on 127.0.0.1 on a free port (real sockets). */
export const serveLoopback = (fetch: (request: Request) => Response | Promise<Response>): Promise<Served> => serveOnNode(fetch);

/** A date `days` from today, `YYYY-MM-DD` (UTC). */
export const daysAhead = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
