import type { SearchSnapshot } from "@voar/core";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { answerTag } from "../http/entity-tag.js";
import type { SearchRouteDeps, ResolvedSearch } from "./search-request.js";
import { envelopeOf } from "./search-request.js";

const MARK = "__voar_request_id__";

/** A written answer around its `RequestId`: everything but the id is the same for every request of a page. */
interface Written {
  readonly status: ContentfulStatusCode;
  /** UTF-8 bytes up to the id's place, and from it on: encoded once, copied per request. */
  readonly before: Uint8Array<ArrayBuffer>;
  readonly after: Uint8Array<ArrayBuffer>;
  /** The answer's entity tag (search, version, what was asked); only a successful answer has one. */
  readonly etag: string | undefined;
}

const encoder = new TextEncoder();

/** Bytes of written answers an app keeps at most (see {@link WrittenPages}). */
export const WRITTEN_PAGES_BYTES = 16 * 1024 * 1024;

/**
 * The written answers an app keeps, one per search and what was asked (its latest version only: an older
 * version's answer is dropped when a newer one is written), least recently used dropped first beyond a
 * budget of bytes. Polls repeat the same few pages, so a small budget serves them; what it holds is bounded
 * whatever the number of searches, instead of every page of every live search staying in memory.
 *
 * An answer's bytes are kept from its second request on: the first one leaves only a mark (the key and the
 * version). Most versions of a running search are read once (by the one client polling it, which then sees
 * a newer version), so keeping their bytes would fill the budget with answers nobody asks for again; a page
 * polled again unchanged (a client without `If-None-Match`, several clients of one search) is written twice,
 * then served from here.
 */
export class WrittenPages {
  private readonly entries = new Map<string, { readonly version: number; readonly written: Written | undefined }>();
  private bytes = 0;

  constructor(private readonly budgetBytes = WRITTEN_PAGES_BYTES) {}

  get(key: string, version: number): Written | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version || !entry.written) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.written;
  }

  /** Offers this answer of the key's version: kept if it was asked before (see the class), else marked. */
  set(key: string, version: number, written: Written): void {
    const seen = this.entries.get(key)?.version === version;
    this.drop(key);
    const entry = { version, written: seen ? written : undefined };
    this.entries.set(key, entry);
    this.bytes += sizeOf(key, entry.written);
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.budgetBytes || oldest === key) break;
      this.drop(oldest);
    }
  }

  /** Drops the answers of these searches (their TTL passed). */
  forget(ids: ReadonlySet<string>): void {
    for (const key of [...this.entries.keys()]) if (ids.has(key.slice(0, key.indexOf("|")))) this.drop(key);
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= sizeOf(key, entry.written);
  }
}

/** Bytes an entry is counted for: its answer's, or a mark's (its key and the map's entry, about). */
const sizeOf = (key: string, w: Written | undefined) => (w ? w.before.byteLength + w.after.byteLength : 64 + 2 * key.length);

/**
 * The JSON text of a polling answer. Polls of one search version and page get the same envelope but their
 * own `RequestId`, so the envelope is built and serialized once per snapshot version and page (kept in the
 * app's {@link WrittenPages}) and only the id is spliced in. Serializing a 20 KB envelope is the largest cost of a
 * poll; a poll of an unchanged search then costs little more than sending the bytes.
 *
 * `parted`: the answer's body as three chunks (the bytes before the id, the id, the bytes after it), for an
 * entry that writes them one after another (see `parted-answer.ts`); else one array, the id copied in.
 */
export const serializedAnswer = (
  deps: SearchRouteDeps,
  s: SearchSnapshot,
  r: ResolvedSearch,
  requestId: string,
  parted = false,
): { readonly status: ContentfulStatusCode; readonly etag: string | undefined; readonly body: Uint8Array<ArrayBuffer> | readonly Uint8Array[] } => {
  const w = writtenAnswer(deps, s, r);
  return { status: w.status, etag: w.etag, body: parted ? requestIdChunks(w, requestId) : withRequestId(w, requestId) };
};

/**
 * The entity tag a successful answer of this snapshot has for what was asked (see `answerTag`): known before
 * the answer is written, so that a conditional poll of an unchanged version is answered without writing it.
 */
export const answerTagOf = (s: SearchSnapshot, r: ResolvedSearch): string => answerTag(r.record.id, s.version, r.asked);

/** The answer of a snapshot for what was asked, written once (see {@link serializedAnswer}). */
const writtenAnswer = (deps: SearchRouteDeps, s: SearchSnapshot, r: ResolvedSearch): Written => {
  const key = `${r.record.id}|${r.asked}`;
  let w = deps.pages.get(key, s.version);
  if (!w) {
    const { status, body } = envelopeOf(deps, s, r, MARK);
    const text = JSON.stringify(body);
    const at = text.indexOf(`"${MARK}"`);
    w = {
      status,
      before: encoder.encode(text.slice(0, at + 1)),
      after: encoder.encode(text.slice(at + 1 + MARK.length)),
      etag: status === 200 ? answerTagOf(s, r) : undefined,
    };
    deps.pages.set(key, s.version, w);
  }
  return w;
};

/** Printable ASCII but `"` and `\`: a JSON string's content as it is, one byte per character. */
const PLAIN_JSON_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A request's id as it goes into the answer: escaped as a JSON string's content, whatever it holds. */
const idBytes = (requestId: string): Uint8Array<ArrayBuffer> => encoder.encode(PLAIN_JSON_TEXT.test(requestId) ? requestId : JSON.stringify(requestId).slice(1, -1));

/** The written answer's bytes around a request's id, as chunks in order: nothing shared is copied. */
export const requestIdChunks = (w: Written, requestId: string): readonly Uint8Array[] => [w.before, idBytes(requestId), w.after];

/** The written answer's bytes with a request's id spliced in. */
export const withRequestId = (w: Written, requestId: string): Uint8Array<ArrayBuffer> => {
  // Escaped as a JSON string's content, whatever the id holds; a plain id (a UUID, a client's token) is
  // written straight into the answer's bytes.
  const plain = PLAIN_JSON_TEXT.test(requestId);
  const id = plain ? undefined : encoder.encode(JSON.stringify(requestId).slice(1, -1));
  const idLength = id ? id.length : requestId.length;
  const bytes = new Uint8Array(w.before.length + idLength + w.after.length);
  bytes.set(w.before, 0);
  if (id) bytes.set(id, w.before.length);
  else encoder.encodeInto(requestId, bytes.subarray(w.before.length, w.before.length + idLength));
  bytes.set(w.after, w.before.length + idLength);
  return bytes;
};
