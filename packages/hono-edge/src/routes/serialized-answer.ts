import { viewKey, type SearchSnapshot } from "@voar/core";
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

const written = new WeakMap<SearchSnapshot, Map<string, Written>>();

/**
 * The JSON text of a polling answer. Polls of one search version and page get the same envelope but their
 * own `RequestId`, so the envelope is built and serialized once per snapshot version and page (kept as long
 * as the snapshot is) and only the id is spliced in. Serializing a 20 KB envelope is the largest cost of a
 * poll; a poll of an unchanged search then costs little more than copying and sending the bytes.
 */
export const serializedAnswer = (
  deps: SearchRouteDeps,
  s: SearchSnapshot,
  r: ResolvedSearch,
  requestId: string,
): { readonly status: ContentfulStatusCode; readonly etag: string | undefined; readonly bytes: Uint8Array<ArrayBuffer> } => {
  const w = writtenAnswer(deps, s, r);
  return { status: w.status, etag: w.etag, bytes: withRequestId(w, requestId) };
};

/** What was asked of a search, as one key: the whole result ("all") whatever page came with it, or the page; filters and order. */
const askedKey = (r: ResolvedSearch): string => `${r.pageSize === "all" ? "all" : `${r.page}|${r.pageSize}`}|${viewKey(r.view)}`;

/**
 * The entity tag a successful answer of this snapshot has for what was asked (see `answerTag`): known before
 * the answer is written, so that a conditional poll of an unchanged version is answered without writing it.
 */
export const answerTagOf = (s: SearchSnapshot, r: ResolvedSearch): string => answerTag(r.record.id, s.version, askedKey(r));

/** The answer of a snapshot for what was asked, written once (see {@link serializedAnswer}). */
const writtenAnswer = (deps: SearchRouteDeps, s: SearchSnapshot, r: ResolvedSearch): Written => {
  const key = askedKey(r);
  let pages = written.get(s);
  let w = pages?.get(key);
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
    if (!pages) written.set(s, (pages = new Map()));
    pages.set(key, w);
  }
  return w;
};

/** The written answer's bytes with a request's id spliced in. */
const withRequestId = (w: Written, requestId: string): Uint8Array<ArrayBuffer> => {
  // Escaped as a JSON string's content, whatever the id holds.
  const id = encoder.encode(JSON.stringify(requestId).slice(1, -1));
  const bytes = new Uint8Array(w.before.length + id.length + w.after.length);
  bytes.set(w.before, 0);
  bytes.set(id, w.before.length);
  bytes.set(w.after, w.before.length + id.length);
  return bytes;
};
