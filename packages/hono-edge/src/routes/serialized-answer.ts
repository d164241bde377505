import { viewKey, type SearchSnapshot } from "@voar/core";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { SearchRouteDeps, ResolvedSearch } from "./search-request.js";
import { envelopeOf } from "./search-request.js";

const MARK = "__voar_request_id__";

/** A written answer around its `RequestId`: everything but the id is the same for every request of a page. */
interface Written {
  readonly status: ContentfulStatusCode;
  /** UTF-8 bytes up to the id's place, and from it on: encoded once, copied per request. */
  readonly before: Uint8Array<ArrayBuffer>;
  readonly after: Uint8Array<ArrayBuffer>;
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
): { readonly status: ContentfulStatusCode; readonly bytes: Uint8Array<ArrayBuffer> } => {
  // The whole result ("all") is one answer whatever page number came with it; filters and order make another answer.
  const page = r.pageSize === "all" ? "all" : `${r.page}|${r.pageSize}`;
  const key = `${r.record.id}|${page}|${viewKey(r.view)}`;
  let pages = written.get(s);
  let w = pages?.get(key);
  if (!w) {
    const { status, body } = envelopeOf(deps, s, r, MARK);
    const text = JSON.stringify(body);
    const at = text.indexOf(`"${MARK}"`);
    w = { status, before: encoder.encode(text.slice(0, at + 1)), after: encoder.encode(text.slice(at + 1 + MARK.length)) };
    if (!pages) written.set(s, (pages = new Map()));
    pages.set(key, w);
  }
  // Escaped as a JSON string's content, whatever the id holds.
  const id = encoder.encode(JSON.stringify(requestId).slice(1, -1));
  const bytes = new Uint8Array(w.before.length + id.length + w.after.length);
  bytes.set(w.before, 0);
  bytes.set(id, w.before.length);
  bytes.set(w.after, w.before.length + id.length);
  return { status: w.status, bytes };
};
