/**
 * The parts of the Cloudflare Workers runtime API the Durable Object entry uses, typed here so the package
 * needs no `@cloudflare/workers-types` (whose globals would clash with the DOM and Node types it builds with).
 */

/** A Durable Object's id (`state.id`, `namespace.idFromName`). `toString()` is its 64 hex digits. */
export interface DurableObjectId {
  toString(): string;
}

/** What the Worker calls a Durable Object through. */
export interface DurableObjectStub {
  fetch(request: Request): Promise<Response>;
}

/** A Durable Object binding (`[[durable_objects.bindings]]` in wrangler.toml). */
export interface DurableObjectNamespace {
  idFromName(name: string): DurableObjectId;
  /** Throws when the text is not an id of this namespace. */
  idFromString(id: string): DurableObjectId;
  get(id: DurableObjectId): DurableObjectStub;
}

/** The transactional key-value storage of a Durable Object, as far as the session store uses it. */
export interface DurableStorage {
  /** Every entry whose key starts with `prefix`, in key order. */
  list<T = unknown>(options: { readonly prefix: string }): Promise<Map<string, T>>;
  /** Writes up to 128 entries atomically. */
  put(entries: Record<string, unknown>): Promise<void>;
  /** Deletes up to 128 keys; how many existed. */
  delete(keys: string[]): Promise<number>;
}

/** A Durable Object's storage with its alarm. */
export interface DurableObjectStorage extends DurableStorage {
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The state handed to a Durable Object's constructor. */
export interface DurableObjectState {
  readonly id: DurableObjectId;
  readonly storage: DurableObjectStorage;
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
}

/** The part of a Worker's execution context the entry uses. */
export interface WorkerContext {
  waitUntil(promise: Promise<unknown>): void;
}
