/**
 * Entity tags of polled answers. A polled answer changes only with its search's version and with what was
 * asked (page, page size, filters, order); its `RequestId` differs per request but is no part of its
 * content, so the tag is weak (`W/`) and leaves the id out.
 */
import { hash53 } from "@voar/core";

/** A 53-bit hash of a text (core's cyrb53), as base-36: short, and collisions between a search's pages are negligible. */
export const hashText = (text: string): string => hash53(text).toString(36);

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
