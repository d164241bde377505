/**
 * What the shared objects keep for the Worker's settings that every isolate must share (see `shared-object.ts`):
 * a rate limit's token bucket (one object per budget and key) and the Pagante switch (one object per deployment).
 * Storage reads and writes only, so the runtime's input gate runs one request's read-modify-write before the next:
 * each step is atomic, as the Redis scripts are on Node. Runtime-neutral: Web APIs only.
 */
import { stepBucket, type Bucket, type BucketOperation, type BucketSettings, type RateDecision } from "../limits/token-bucket.js";
import type { DurableStorage } from "./workers-types.js";

const BUCKET = "r:bucket";
const PAGANTE = "p:off";

/** `POST /rate`: one operation on the object's bucket. */
export interface RateRequest {
  readonly op: BucketOperation;
  readonly settings: BucketSettings;
  readonly now: number;
}

/** `POST /pagante`: read the switch (seeded from `initialOff` when the object has none yet), or set one airline's. */
export interface PaganteRequest {
  readonly initialOff: readonly number[];
  readonly set?: { readonly airlineId: number; readonly enabled: boolean } | undefined;
}

/** The switch after the request (the airlines off, ascending), and one airline's state before a `set`. */
export interface PaganteReply {
  readonly off: readonly number[];
  readonly before?: boolean | undefined;
}

interface StoredBucket {
  readonly bucket: Bucket;
  /** When the bucket is full again: forgotten then (an absent bucket is a full one). */
  readonly expiresAt: number;
}

/** A bucket's step, kept in storage until it is full again; when the object may forget it. */
export const rateStep = async (storage: DurableStorage, r: RateRequest): Promise<{ readonly decision: RateDecision; readonly expiresAt: number | undefined }> => {
  const stored = (await storage.list<StoredBucket>({ prefix: BUCKET })).get(BUCKET);
  const prior = stored && stored.expiresAt > r.now ? stored.bucket : undefined;
  const { decision, after } = stepBucket(prior, r.op, r.settings, r.now);
  if (!after) return { decision, expiresAt: stored?.expiresAt };
  const expiresAt = r.now + Math.ceil(((r.settings.capacity - after.tokens) / r.settings.refillPerSecond) * 1_000) + 1_000;
  await storage.put({ [BUCKET]: { bucket: after, expiresAt } satisfies StoredBucket });
  return { decision, expiresAt };
};

/** When the stored bucket may be forgotten (undefined: none). */
export const bucketExpiry = (stored: ReadonlyMap<string, unknown>): number | undefined => (stored.get(BUCKET) as StoredBucket | undefined)?.expiresAt;

/** The Pagante switch of the deployment: read (seeded from the first isolate's configuration) or set, atomically. */
export const paganteStep = async (storage: DurableStorage, r: PaganteRequest): Promise<PaganteReply> => {
  const stored = (await storage.list<readonly number[]>({ prefix: PAGANTE })).get(PAGANTE);
  const off = new Set(stored ?? r.initialOff);
  if (!r.set) {
    if (!stored) await storage.put({ [PAGANTE]: [...off] });
    return { off: [...off].sort((a, b) => a - b) };
  }
  const before = !off.has(r.set.airlineId);
  if (r.set.enabled) off.delete(r.set.airlineId);
  else off.add(r.set.airlineId);
  await storage.put({ [PAGANTE]: [...off] });
  return { off: [...off].sort((a, b) => a - b), before };
};

/** Whether the object holds the Pagante switch (kept for good: no alarm deletes it). */
export const holdsPagante = (stored: ReadonlyMap<string, unknown>): boolean => stored.has(PAGANTE);
