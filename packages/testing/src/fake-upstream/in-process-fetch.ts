/**
 * A `fetch` that calls a Hono app in process, with the manners of a real one: it rejects with the signal's
 * reason as soon as the signal aborts, even while the app is still working on the request.
 */

/** The `fetch` signature the adapters accept. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Anything with Hono's `fetch(request)`. */
export interface FetchHandler {
  fetch(request: Request): Response | Promise<Response>;
}

/** Origin of in-process requests. */
export const IN_PROCESS_ORIGIN = "http://fake-upstream.test";

/**
 * A `fetch` over an app, in process: relative URLs resolve against {@link IN_PROCESS_ORIGIN}.
 *
 * @example
 * const fetch = inProcessFetch(upstream.app);
 * await fetch("/api/Token", { method: "POST", body: "grant_type=password&username=a&password=b" });
 */
export const inProcessFetch =
  (app: FetchHandler): FetchLike =>
  (input, init) => {
    const request = input instanceof Request && init === undefined ? input : new Request(typeof input === "string" ? new URL(input, IN_PROCESS_ORIGIN) : input, init);
    const signal = request.signal;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      Promise.resolve(app.fetch(request)).then(
        (response) => {
          signal.removeEventListener("abort", onAbort);
          resolve(response);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  };
