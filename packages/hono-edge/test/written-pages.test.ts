import { describe, expect, it } from "vitest";
import { withRequestId, WrittenPages } from "../src/routes/serialized-answer.js";

const page = (bytes: number) => ({ status: 200 as const, before: new Uint8Array(bytes / 2), after: new Uint8Array(bytes / 2), etag: undefined });

describe("the written answers an app keeps", () => {
  it("keep only the latest version of a page, and at most their budget of bytes, least recently used dropped first", () => {
    const pages = new WrittenPages(1_000);
    const v1 = page(400);
    pages.set("a|1|10", 1, v1);
    expect(pages.get("a|1|10", 1)).toBe(v1);
    pages.set("a|1|10", 2, page(400));
    expect(pages.get("a|1|10", 1)).toBeUndefined(); // the older version is gone
    pages.set("b|1|10", 1, page(400));
    pages.get("a|1|10", 2); // a is now the most recently used
    pages.set("c|1|10", 1, page(400)); // over the budget: b goes
    expect(pages.get("b|1|10", 1)).toBeUndefined();
    expect(pages.get("a|1|10", 2)).toBeDefined();
    expect(pages.get("c|1|10", 1)).toBeDefined();
    // One answer larger than the whole budget is still kept (alone): the poll that wrote it is served.
    const huge = page(4_000);
    pages.set("d|1|10", 1, huge);
    expect(pages.get("d|1|10", 1)).toBe(huge);
    expect(pages.get("a|1|10", 2)).toBeUndefined();
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
