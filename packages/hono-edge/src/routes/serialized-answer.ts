import type { SearchSnapshot } from "@voar/core";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { SearchRouteDeps, ResolvedSearch } from "./search-request.js";
import { envelopeOf } from "./search-request.js";

const MARK = "__voar_request_id__";

/** A written answer around its `RequestId`: everything but the id is the same for every request of a page. */
interface Written {
  readonly status: ContentfulStatusCode;
  readonly before: string;
  readonly after: string;
}

const written = new WeakMap<SearchSnapshot, Map<string, Written>>();

/**
 * The JSON text of a polling answer. Polls of one search version and page get the same envelope but their
 * own `RequestId`, so the envelope is built and serialized once per snapshot version and page (kept as long
 * as the snapshot is) and only the id is spliced in. Serializing a 20 KB envelope is the largest cost of a
 * poll; a poll of an unchanged search then costs little more than sending the bytes.
 */
export const serializedAnswer = (
  deps: SearchRouteDeps,
  s: SearchSnapshot,
  r: ResolvedSearch,
  requestId: string,
): { readonly status: ContentfulStatusCode; readonly text: string } => {
  const key = `${r.record.id}|${r.page}|${r.pageSize}`;
  let pages = written.get(s);
  let w = pages?.get(key);
  if (!w) {
    const { status, body } = envelopeOf(deps, s, r, MARK);
    const text = JSON.stringify(body);
    const at = text.indexOf(`"${MARK}"`);
    w = { status, before: text.slice(0, at + 1), after: text.slice(at + 1 + MARK.length) };
    if (!pages) written.set(s, (pages = new Map()));
    pages.set(key, w);
  }
  // Escaped as a JSON string's content, whatever the id holds.
  return { status: w.status, text: `${w.before}${JSON.stringify(requestId).slice(1, -1)}${w.after}` };
};
