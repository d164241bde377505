/**
 * The answer cache on Workers: one Durable Object per cached answer (`ANSWERS` binding, class `AnswerObject`),
 * named by the deployment's fingerprint and the cache's key (account, airline, query), so that every search
 * object of the deployment, whichever tenant it serves and wherever it runs, finds what another fetched. A
 * Worker's isolates and search objects share no memory: without it, ten agencies asking one route would make
 * ten upstream searches.
 *
 * The object keeps its answer in its storage (it outlives the object's eviction from memory) as JSON cut into
 * chunks that fit any value limit, and deletes it at its expiry (an alarm). Runtime-neutral: Web APIs only.
 */
import type { Clock } from "../clock.js";
import type { AnswerStore, CachedAnswer } from "../sources/answer-store.js";
import type { DurableObjectNamespace, DurableObjectState } from "./workers-types.js";

/** Characters per stored chunk: at most 3 UTF-8 bytes each, under the 128 KiB of a value of the key-value API. */
const CHUNK_CHARS = 40_000;
/** Chunks of one answer: one atomic write (128 entries, the meta among them). */
const MAX_CHUNKS = 120;
const META = "a:meta";
const chunkKey = (i: number) => `a:c${String(i).padStart(4, "0")}`;

interface Meta {
  readonly expiresAt: number;
  readonly chunks: number;
}

/** What the store sends an object to keep: the answer and how long. */
interface PutBody {
  readonly answer: CachedAnswer;
  readonly ttlMs: number;
}

/** The object's work, apart from the runtime's class (see `entries/workerd.ts`), so tests drive it with a memory storage. */
export class AnswerObjectCore {
  constructor(
    private readonly state: DurableObjectState,
    private readonly clock: Clock,
  ) {}

  /** `GET`: the answer (200 JSON) or 404 when none or expired; `PUT` a {@link PutBody}: kept until its TTL. */
  async fetch(request: Request): Promise<Response> {
    if (request.method === "GET") {
      const text = await this.read();
      return text === undefined ? new Response(null, { status: 404 }) : new Response(text, { headers: { "content-type": "application/json" } });
    }
    if (request.method === "PUT") {
      const body = (await request.json()) as PutBody;
      return new Response(null, { status: (await this.write(body)) ? 204 : 413 });
    }
    return new Response(null, { status: 405 });
  }

  /** At the answer's expiry: gone (a later write moved the alarm, so an early call keeps it). */
  async alarm(): Promise<void> {
    const stored = await this.state.storage.list<unknown>({ prefix: "a:" });
    const meta = stored.get(META) as Meta | undefined;
    if (meta && meta.expiresAt > this.clock.now()) return this.state.storage.setAlarm(meta.expiresAt);
    await this.clear([...stored.keys()]);
  }

  private async read(): Promise<string | undefined> {
    const stored = await this.state.storage.list<unknown>({ prefix: "a:" });
    const meta = stored.get(META) as Meta | undefined;
    if (!meta || meta.expiresAt <= this.clock.now()) return undefined;
    let text = "";
    for (let i = 0; i < meta.chunks; i++) {
      const chunk = stored.get(chunkKey(i));
      if (typeof chunk !== "string") return undefined; // a torn write cannot happen (one atomic put), but never answer half
      text += chunk;
    }
    return text;
  }

  private async write({ answer, ttlMs }: PutBody): Promise<boolean> {
    const text = JSON.stringify(answer);
    const chunks = Math.max(1, Math.ceil(text.length / CHUNK_CHARS));
    if (chunks > MAX_CHUNKS || !(ttlMs > 0)) return false;
    const before = await this.state.storage.list<unknown>({ prefix: "a:" });
    const meta: Meta = { expiresAt: this.clock.now() + ttlMs, chunks };
    const entries: Record<string, unknown> = { [META]: meta };
    for (let i = 0; i < chunks; i++) entries[chunkKey(i)] = text.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS);
    await this.state.storage.put(entries);
    await this.clear([...before.keys()].filter((k) => !(k in entries)));
    await this.state.storage.setAlarm(meta.expiresAt);
    return true;
  }

  private async clear(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 128) await this.state.storage.delete(keys.slice(i, i + 128));
  }
}

/** Options of {@link durableAnswerStore}. */
export interface DurableAnswerStoreOptions {
  /** The `ANSWERS` binding. */
  readonly namespace: DurableObjectNamespace;
  /** The deployment's fingerprint (`deploymentFingerprint`): answers of another deployment on the same namespace are never read. */
  readonly deployment: Promise<string> | string;
}

/**
 * The answer cache's store over the answer objects: each key its own object. A lookup that fails (the object
 * unreachable) rejects, and the cache then asks the source.
 *
 * @example
 * const store = durableAnswerStore({ namespace: env.ANSWERS, deployment });
 */
export const durableAnswerStore = (o: DurableAnswerStoreOptions): AnswerStore => {
  const stub = async (key: string) => o.namespace.get(o.namespace.idFromName(`${await o.deployment}|${key}`));
  // The object reads its path from nothing: the URL only has to be one.
  const url = "https://answers.voar.internal/answer";
  return {
    get: async (key) => {
      const res = await (await stub(key)).fetch(new Request(url));
      if (res.status === 404) return undefined;
      if (!res.ok) throw new Error(`answer object: HTTP ${res.status}`);
      return (await res.json()) as CachedAnswer;
    },
    set: async (key, answer, ttlMs) => {
      const body: PutBody = { answer, ttlMs };
      const res = await (await stub(key)).fetch(new Request(url, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
      // 413: too large to keep; not kept, as a store that has no room would not keep it.
      if (!res.ok && res.status !== 413) throw new Error(`answer object: HTTP ${res.status}`);
    },
  };
};
