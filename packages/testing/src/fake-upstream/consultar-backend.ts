/** Who answers the search requests of a fake upstream: live searches or a recorded fixture. */
import type { UpstreamReply } from "./upstream-reply.js";

/** One authenticated search request. */
export interface ConsultarCall {
  /** The parsed JSON body. */
  readonly body: unknown;
  /** Who asks (the account, or the static key): searches are kept per tenant. */
  readonly tenant: string;
  /** Number of this request among the upstream's authenticated search requests, from 1. */
  readonly n: number;
}

/** Answers search requests. */
export interface ConsultarBackend {
  answer(call: ConsultarCall): UpstreamReply | Promise<UpstreamReply>;
  /** Stops whatever the backend runs (live searches). */
  close(): void;
}
