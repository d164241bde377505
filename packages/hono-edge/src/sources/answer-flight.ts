/**
 * One run of a source for a query, followed by every search that wants its answer: the batches so far are
 * replayed to a late follower, then each new one as it comes. It is how identical queries of different
 * tenants (and a refresh) cost one upstream search instead of one each.
 */
import { trace, type Context } from "@opentelemetry/api";
import type { Offer } from "@voar/core";

/** A source run shared by its followers. */
export class AnswerFlight {
  /** Every batch so far, empty ones included (they tell the engine the source is alive). */
  readonly batches: (readonly Offer[])[] = [];
  state: "running" | "done" | "failed" = "running";
  error: unknown;
  /** Aborts the source's run. */
  readonly controller = new AbortController();
  private followers = 0;
  private wakers: (() => void)[] = [];

  /**
   * @param background A refresh nobody waits for: it runs to its end when its followers leave, so the
   *   cache gets the fresh answer. Otherwise the run stops when its last follower leaves.
   */
  constructor(
    readonly background: boolean,
    /** The trace context of the source attempt that started the run: its upstream requests are spans of it. */
    readonly started: Context,
  ) {}

  /**
   * A search joining the run from its own trace (`joiner`): its span links to the span of the attempt that started
   * the run, where the run's upstream requests are, so a trace of the joining search leads to them.
   */
  joinedFrom(joiner: Context): void {
    const theirs = trace.getSpanContext(this.started);
    const span = trace.getSpan(joiner);
    if (theirs && span && span.spanContext().spanId !== theirs.spanId) span.addLink({ context: theirs, attributes: { "voar.link": "shared-upstream-search" } });
  }

  /** Tells the followers something happened (a batch, the end). */
  changed(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }

  /** The batches of the run, from the first, until it ends; throws its error if it failed. */
  async *follow(signal: AbortSignal): AsyncGenerator<readonly Offer[]> {
    this.followers++;
    try {
      for (let i = 0; ; ) {
        while (i < this.batches.length) yield this.batches[i++]!;
        if (this.state === "failed") throw this.error;
        if (this.state === "done") return;
        await this.next(signal);
      }
    } finally {
      this.followers--;
      if (this.followers === 0 && !this.background && this.state === "running") this.controller.abort(new DOMException("no search follows this answer any more", "AbortError"));
    }
  }

  private next(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.wakers.push(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      });
    });
  }
}
