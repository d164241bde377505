import type { Context } from "hono";

/** Where the client's address is read from: a trusted proxy's header, else the runtime's connection. */
export interface ClientAddressSource {
  /** Lower-case header name set by a trusted reverse proxy (`http.trustedProxyHeader`). */
  readonly trustedProxyHeader?: string | undefined;
  /** The runtime's view of the connection (the Node entry: the socket's remote address). */
  readonly fromRuntime?: ((c: Context) => string | undefined) | undefined;
}

/** What stands for a client whose address is not known (all of them share one budget). */
export const UNKNOWN_CLIENT = "unknown";

/**
 * The client's address of a request. With a trusted proxy header, its last entry (a proxy appends the
 * address it saw to what the client sent, so only the last entry is the proxy's word); else the runtime's.
 * At most 64 characters, so a key built from it stays small.
 */
export const clientAddressOf = (c: Context, source: ClientAddressSource): string => {
  let address: string | undefined;
  if (source.trustedProxyHeader) {
    address = c.req.header(source.trustedProxyHeader)?.split(",").at(-1)?.trim();
  } else {
    try {
      address = source.fromRuntime?.(c);
    } catch {
      address = undefined; // a runtime that cannot say (e.g. a request made in-process)
    }
  }
  return address ? address.slice(0, 64) : UNKNOWN_CLIENT;
};
