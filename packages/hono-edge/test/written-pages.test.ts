import { describe, expect, it } from "vitest";
import { withRequestId, WrittenPages } from "../src/routes/serialized-answer.js";

const page = (bytes: number) => ({ status: 200 as const, before: new Uint8Array(bytes / 2), after: new Uint8Array(bytes / 2), etag: undefined });

describe("the written answers an app keeps", () => {
  /** Writes the answer as a poll does: looked up, and offered when missing. */
  const poll = (pages: WrittenPages, key: string, version: number, written: ReturnType<typeof page>) =>
    pages.get(key, version) ?? (pages.set(key, version, written), written);

  it("keep an answer from its second request on: a version read once leaves only a mark", () => {
    const pages = new WrittenPages(100_000);
    const v1 = page(400);
    pages.set("a|1|10", 1, v1);
    expect(pages.get("a|1|10", 1)).toBeUndefined(); // asked once: not kept
    pages.set("a|1|10", 2, page(400)); // a newer version, asked once: not kept either
    expect(pages.get("a|1|10", 2)).toBeUndefined();
    const v2 = page(400);
    pages.set("a|1|10", 2, v2); // asked again, unchanged: kept
    expect(pages.get("a|1|10", 2)).toBe(v2);
    expect(pages.get("a|1|10", 1)).toBeUndefined(); // the older version is gone
  });

  it("keep only the latest version of a page, and at most their budget of bytes, least recently used dropped first", () => {
    const pages = new WrittenPages(1_000);
    poll(pages, "a|1|10", 2, page(400));
    const a = poll(pages, "a|1|10", 2, page(400));
    expect(pages.get("a|1|10", 2)).toBe(a);
    poll(pages, "b|1|10", 1, page(400));
    poll(pages, "b|1|10", 1, page(400));
    pages.get("a|1|10", 2); // a is now the most recently used
    poll(pages, "c|1|10", 1, page(400));
    poll(pages, "c|1|10", 1, page(400)); // over the budget: b goes
    expect(pages.get("b|1|10", 1)).toBeUndefined();
    expect(pages.get("a|1|10", 2)).toBeDefined();
    expect(pages.get("c|1|10", 1)).toBeDefined();
    // One answer larger than the whole budget is still kept (alone): the poll that wrote it is served.
    poll(pages, "d|1|10", 1, page(4_000));
    const huge = poll(pages, "d|1|10", 1, page(4_000));
    expect(pages.get("d|1|10", 1)).toBe(huge);
    expect(pages.get("a|1|10", 2)).toBeUndefined();
  });

  it("count the marks in their budget: many pages read once do not grow it without bound", () => {
    const pages = new WrittenPages(10_000);
    for (let i = 0; i < 10_000; i++) pages.set(`search-${i}|1|10`, 1, page(400));
    // Early marks were dropped: asking again the first page writes a mark anew, not the answer.
    pages.set("search-0|1|10", 1, page(400));
    expect(pages.get("search-0|1|10", 1)).toBeUndefined();
    // A recent one is still marked, so its second request keeps it.
    const recent = page(400);
    pages.set("search-9999|1|10", 1, recent);
    expect(pages.get("search-9999|1|10", 1)).toBe(recent);
  });
});

describe("a written answer's RequestId", () => {
  const encoder = new TextEncoder();
  const written = { status: 200 as const, before: encoder.encode('{"Token":"t-1","RequestId":"'), after: encoder.encode('","Completed":true}'), etag: undefined };

  it.each([["3f1c2b9a-1111-4222-8333-444455556666"], ["client-req.1_x"], [""], ['a"b\\c'], ["ação ✈ 😀"], ["line\nbreak\u2028"], ["\u0000\u001f"]])(
    "is spliced in as JSON text that reads back as the id itself (%j)",
    (id) => {
      const text = new TextDecoder().decode(withRequestId(written, id));
      expect(JSON.parse(text)).toEqual({ Token: "t-1", RequestId: id, Completed: true });
    },
  );
});
