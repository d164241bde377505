/**
 * The client that plays a scenario against an upstream while it is recorded: it logs in with the password
 * grant, sends the search, then polls with the `LeaseId` the upstream hands out at a fixed pace, as public
 * clients of the real service do. It logs in again on a 401, waits `Retry-After` on a 429 and gives up after
 * a few failures in a row. It is deliberately simple: the adapter under test is elsewhere.
 */
import { sleep } from "../fake-upstream/upstream-reply.js";
import type { FetchLike } from "../fake-upstream/in-process-fetch.js";

/** Options of {@link driveSearch}. */
export interface DriveOptions {
  readonly fetch: FetchLike;
  /** e.g. `http://fake-upstream.test/api`. */
  readonly baseUrl: string;
  readonly username: string;
  readonly password: string;
  /** The search request body. */
  readonly request: Record<string, unknown>;
  /** Pause between polls. */
  readonly pollMs: number;
  /** Failures in a row (5xx, dropped connections) before giving up. */
  readonly maxFailures: number;
  /** Requests in all before giving up. */
  readonly maxRequests: number;
  /** Told of every search answer read (a JSON body), when it came: to see when the client had each offer. */
  readonly onAnswer?: ((answer: DrivenAnswer) => void) | undefined;
}

/** One search answer the client read. */
export interface DrivenAnswer {
  /** The parsed body. */
  readonly json: Record<string, unknown>;
  /** HTTP status. */
  readonly status: number;
  /** `Date.now()` when the answer had been read whole. */
  readonly at: number;
}

/** How a driven search ended. */
export type DriveResult = "completed" | "refused" | "gave-up";

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u);

const leaseOf = (json: Record<string, unknown>): string | undefined => {
  const ex = json.ExErro;
  const fromEx = isRecord(ex) && isRecord(ex.Extensions) ? ex.Extensions.LeaseId : undefined;
  const first = Array.isArray(json.Data) ? json.Data[0] : undefined;
  const fromData = isRecord(first) ? first.LeaseId : undefined;
  const lease = typeof fromEx === "string" ? fromEx : fromData;
  return typeof lease === "string" ? lease : undefined;
};

/** Plays one search to its end; see the module comment. */
export const driveSearch = async (o: DriveOptions): Promise<DriveResult> => {
  const login = async (): Promise<string> => {
    const res = await o.fetch(`${o.baseUrl}/Token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "externo" },
      body: new URLSearchParams({ grant_type: "password", username: o.username, password: o.password }).toString(),
    });
    const json: unknown = await res.json();
    if (!res.ok || !isRecord(json) || typeof json.access_token !== "string") throw new Error(`login refused (HTTP ${res.status})`);
    return json.access_token;
  };
  let token = await login();
  let lease: string | undefined;
  let failures = 0;
  for (let n = 0; n < o.maxRequests; n++) {
    const body = lease ? { LeaseId: lease } : o.request;
    let res: Response;
    let json: unknown;
    try {
      res = await o.fetch(`${o.baseUrl}/ConsultaAereo/Consultar`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      json = JSON.parse(await res.text());
    } catch {
      // A dropped connection or a cut body: counted, then polled again.
      if (++failures > o.maxFailures) return "gave-up";
      await sleep(o.pollMs);
      continue;
    }
    if (res.status === 401) {
      token = await login();
      continue;
    }
    if (res.status === 429) {
      await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
      continue;
    }
    if (!res.ok || !isRecord(json)) {
      if (++failures > o.maxFailures) return "gave-up";
      await sleep(o.pollMs);
      continue;
    }
    failures = 0;
    o.onAnswer?.({ json, status: res.status, at: Date.now() });
    if (json.Success === false) return "refused";
    lease = leaseOf(json) ?? lease;
    if (json.Completed === true) return "completed";
    await sleep(o.pollMs);
  }
  return "gave-up";
};
