import type { SearchChange } from "../search/search-change.js";
import type { SearchRecord } from "../search/session-store.js";

/** The part of a record that never changes after creation: stored once, as JSON, in the hash's `rec` field. */
type FixedPart = Pick<SearchRecord, "id" | "key" | "tenant" | "query" | "sources" | "hiddenCashAirlines" | "createdAt" | "deadlineAt">;

/** The hash fields of a new search (the order of `HSET` arguments is the Lua script's business). */
export interface RecordFields {
  readonly rec: string;
  readonly owner: string;
  readonly exp: number;
  readonly done: "0" | "1";
  readonly doneAt: number | "";
}

/** Splits a record into the fields the open script stores. */
export const recordToFields = (r: SearchRecord): RecordFields => {
  const fixed: FixedPart = {
    id: r.id,
    key: r.key,
    tenant: r.tenant,
    query: r.query,
    sources: r.sources,
    hiddenCashAirlines: r.hiddenCashAirlines,
    createdAt: r.createdAt,
    deadlineAt: r.deadlineAt,
  };
  return {
    rec: JSON.stringify(fixed),
    owner: r.lease?.owner ?? "",
    exp: r.lease?.expiresAt ?? 0,
    done: r.completed ? "1" : "0",
    doneAt: r.completed ? (r.completedAt ?? r.createdAt) : "",
  };
};

/** Rebuilds a record from its hash (`HGETALL` as an object); undefined for a missing or foreign hash. */
export const recordFromHash = (h: Readonly<Record<string, string>>): SearchRecord | undefined => {
  const rec = h["rec"];
  if (rec === undefined) return undefined;
  const fixed = JSON.parse(rec) as FixedPart;
  const completed = h["done"] === "1";
  const owner = h["owner"];
  return {
    ...fixed,
    version: Number(h["v"] ?? 0),
    completed,
    completedAt: completed ? Number(h["doneAt"]) : undefined,
    lease: owner ? { owner, expiresAt: Number(h["exp"] ?? 0) } : undefined,
  };
};

/** `HGETALL` as the flat array a Lua script returns, to an object. */
export const pairsToHash = (flat: readonly string[]): Record<string, string> => {
  const h: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) h[flat[i]!] = flat[i + 1]!;
  return h;
};

/**
 * A change as stored: JSON whose first member is `version`, so the scripts read a change's version with a
 * pattern match (`^{"version":N`) instead of decoding the whole change.
 */
export const encodeChange = ({ version, ...rest }: SearchChange): string => JSON.stringify({ version, ...rest });

/** A stored change back to data. */
export const decodeChange = (text: string): SearchChange => JSON.parse(text) as SearchChange;
