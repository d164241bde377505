/**
 * Entity tags of polled answers. A polled answer changes only with its search's version and with what was
 * asked (page, page size, filters, order); its `RequestId` differs per request but is no part of its
 * content, so the tag is weak (`W/`) and leaves the id out.
 */

/** A 53-bit hash of a text (cyrb53), as base-36: short, and collisions between a search's pages are negligible. */
export const hash53 = (text: string): string => {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
};

/** The weak entity tag of a search's answer at a version, for what was asked (`asked`: a hash of page and view). */
export const answerTag = (searchId: string, version: number, asked: string): string => `W/"${searchId}.${version}.${asked}"`;

/**
 * Whether an `If-None-Match` header names the tag (weak comparison, RFC 9110 §13.1.2): any tag of its
 * comma-separated list equal to it once the `W/` prefixes are set aside. `*` is not honoured: a client
 * revalidates an answer it has, by its tag.
 */
export const noneMatch = (header: string | undefined, tag: string): boolean => {
  if (header === undefined) return false;
  const opaque = tag.startsWith("W/") ? tag.slice(2) : tag;
  for (const part of header.split(",")) {
    const t = part.trim();
    if ((t.startsWith("W/") ? t.slice(2) : t) === opaque) return true;
  }
  return false;
};
