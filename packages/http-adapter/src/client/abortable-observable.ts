import { Observable } from "rxjs";

/**
 * An Observable over an async generator made for one subscription: values are emitted as they come, and
 * unsubscribing aborts the signal the generator was given, which aborts its request in flight.
 */
export const abortableObservable = <T>(make: (signal: AbortSignal) => AsyncGenerator<T>): Observable<T> =>
  new Observable<T>((subscriber) => {
    const controller = new AbortController();
    const run = async () => {
      try {
        for await (const value of make(controller.signal)) {
          if (subscriber.closed) return;
          subscriber.next(value);
        }
        subscriber.complete();
      } catch (error) {
        // After an unsubscription the abort itself surfaces here; nobody is listening for it.
        if (!controller.signal.aborted) subscriber.error(error);
      }
    };
    void run();
    return () => controller.abort(new DOMException("unsubscribed", "AbortError"));
  });
