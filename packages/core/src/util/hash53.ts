/**
 * A 53-bit hash of a text (cyrb53: two 32-bit multiply-xor lanes): fast, well spread, and pure JS, so the
 * same on every runtime. Not a cryptographic hash: for short stable names (entity tags, offer ids from
 * links) and seeded choices, where two different texts sharing a value (about 1 in 2^53) is harmless.
 * `salt` gives independent hashes of the same text.
 *
 * @example
 * hash53("CNF|SDU").toString(36); // a short stable name
 */
export const hash53 = (text: string, salt = 0): number => {
  let h1 = 0xdeadbeef ^ salt;
  let h2 = 0x41c6ce57 ^ salt;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
};
