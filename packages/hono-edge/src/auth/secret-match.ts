/**
 * Constant-time matching of secrets with Web Crypto only. Both sides are hashed with SHA-256 first, so the
 * comparison always runs over 32 bytes whatever the lengths, and every configured secret is compared on
 * every call (no early exit), so timing reveals neither which secret matched nor how much of one did.
 */

const encoder = new TextEncoder();

/** SHA-256 of a text. */
export const sha256 = async (text: string): Promise<Uint8Array> =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));

/** Compares two byte arrays in time that depends only on their length. */
export const constantTimeEqual = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
};

/** Finds which of a set of secrets a candidate is, in constant time. */
export interface SecretMatcher<T> {
  /** The value of the matching secret, or undefined. */
  match(candidate: string): Promise<T | undefined>;
}

/**
 * Builds a {@link SecretMatcher} over `[secret, value]` entries. The secrets' digests are computed once;
 * the secrets themselves are not kept.
 */
export const secretMatcher = <T>(entries: readonly (readonly [secret: string, value: T])[]): SecretMatcher<T> => {
  const digests = Promise.all(entries.map(async ([secret, value]) => ({ digest: await sha256(secret), value })));
  return {
    async match(candidate) {
      const [known, presented] = await Promise.all([digests, sha256(candidate)]);
      let found: T | undefined;
      for (const k of known) {
        // Every entry is compared; the branch below does not short-circuit the loop.
        if (constantTimeEqual(k.digest, presented)) found = k.value;
      }
      return found;
    },
  };
};
