import type { Context as TraceContext } from "@opentelemetry/api";
import type { Principal } from "../auth/authenticator.js";

/** The Hono environment of the app: what middleware leaves for the handlers. */
export interface AppEnv {
  Variables: {
    /** Id of this request: `RequestId` in every envelope, `X-Request-Id` header, every log line. */
    requestId: string;
    /** Who is calling; set by the bearer middleware on protected routes. */
    principal: Principal;
    /** The real status of an answer sent to a legacy client as 200 (see `legacyStatus`); unset otherwise. */
    realStatus: number | undefined;
    /** When the request reached the app (the clock's ms): how long it waited is admission control's queue age. */
    receivedAt: number;
    /** The name of the admin key of the request (never the key); set by the admin middleware on `/admin/*`. */
    admin: string;
    /** The request's trace context (its span's), handed to the search it starts. */
    trace: TraceContext;
  };
}
