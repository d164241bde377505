import { serveOnNode, type ServedOnNode } from "@voar/testing";

/** A running loopback server. */
export type Served = ServedOnNode;

/** Serves a fetch handler on 127.0.0.1 on a free port (real sockets). */
export const serveLoopback = (fetch: (request: Request) => Response | Promise<Response>): Promise<Served> => serveOnNode(fetch);
