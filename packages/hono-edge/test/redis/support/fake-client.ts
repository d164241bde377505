import { EventEmitter } from "node:events";
import type { GuardedClient } from "../../../src/redis/store-guard.js";

/**
 * An ioredis client as the guard sees it: a status, connection events, and a PING answered when the test says
 * (or at once, while `answering`: a Redis that answers its probes while this process reads replies late).
 */
export const fakeClient = (status = "ready") => {
  const events = new EventEmitter();
  const pings: (() => void)[] = [];
  let answering = false;
  const client: GuardedClient & { status: string } = {
    status,
    on: (event, listener) => events.on(event, listener),
    off: (event, listener) => events.off(event, listener),
    ping: () => (answering ? Promise.resolve("PONG") : new Promise((resolve) => pings.push(() => resolve("PONG")))),
  };
  return {
    client,
    emit(event: "ready" | "close" | "error" | "end") {
      client.status = event === "ready" ? "ready" : event === "close" ? "reconnecting" : client.status;
      events.emit(event);
    },
    /** Redis answers the PINGs it holds (it was frozen and goes on). */
    answerPings: () => pings.splice(0).forEach((answer) => answer()),
    /** From now on every PING is answered at once (`true`) or held (`false`). */
    answerEveryPing: (on: boolean) => void (answering = on),
    pendingPings: () => pings.length,
  };
};
