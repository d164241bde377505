/**
 * A persistent map from strings to values (a hash array mapped trie, CHAMP layout): `set` returns a new
 * map sharing all but one path with the old one, which stays as it was, so every snapshot of a search can
 * be kept at little cost. It exists for its size: a node holds its entries inline, key beside value, in
 * one array (about 16 bytes per entry, plus a share of its node), where a general-purpose persistent map
 * gives every entry a node of its own and wraps every value (about 120 bytes per entry before its inner
 * nodes); a search keeps one entry per offer.
 */

/** The 32-bit FNV-1a hash of a string. */
const fnv1a = (s: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

const BITS = 5;
const MASK = (1 << BITS) - 1;
/** Below this depth the hash has no bits left: keys with one full hash share a collision node. */
const MAX_SHIFT = 30;

const bitpos = (hash: number, shift: number): number => 1 << ((hash >>> shift) & MASK);
const popcount = (n: number): number => {
  n = n - ((n >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};
const indexOf = (bitmap: number, bit: number): number => popcount(bitmap & (bit - 1));

/**
 * A copy of `a` with `remove` slots at `at` replaced by `items`, sized exactly (`splice` and spreads leave
 * room to grow, several times the size of a small node).
 */
const spliced = (a: readonly unknown[], at: number, remove: number, items: readonly unknown[]): unknown[] => {
  const out = new Array<unknown>(a.length - remove + items.length);
  let j = 0;
  for (let i = 0; i < at; i++) out[j++] = a[i];
  for (const item of items) out[j++] = item;
  for (let i = at + remove; i < a.length; i++) out[j++] = a[i];
  return out;
};

/**
 * A trie node, one array: `[data, nodes, ...pairs, ...children]`. `data` marks the hash fragments held
 * inline (their key/value pairs follow, in fragment order), `nodes` those held by a child (at the end, in
 * reverse fragment order). At the last level a node of colliding keys has `data` and `nodes` 0 and only
 * pairs. (One array rather than an object holding one: 48 bytes less per node.)
 */
type Node = readonly unknown[];

const HEAD = 2;
const dataOf = (n: Node): number => n[0] as number;
const nodesOf = (n: Node): number => n[1] as number;
/** The index of the pair of fragment `bit` (held inline). */
const pairAt = (n: Node, bit: number): number => HEAD + 2 * indexOf(dataOf(n), bit);
/** The index of the child of fragment `bit`. */
const childAt = (n: Node, bit: number): number => n.length - 1 - indexOf(nodesOf(n), bit);
const EMPTY_NODE: Node = [0, 0];

/** A node holding two entries whose keys differ, from `shift` on. */
const pair = <V>(k1: string, v1: V, h1: number, k2: string, v2: V, h2: number, shift: number): Node => {
  if (shift > MAX_SHIFT) return [0, 0, k1, v1, k2, v2];
  const b1 = bitpos(h1, shift);
  const b2 = bitpos(h2, shift);
  if (b1 === b2) return [0, b1, pair(k1, v1, h1, k2, v2, h2, shift + BITS)];
  return b1 >>> 0 < b2 >>> 0 ? [b1 | b2, 0, k1, v1, k2, v2] : [b1 | b2, 0, k2, v2, k1, v1];
};

const get = <V>(n: Node, key: string, hash: number): V | undefined => {
  let shift = 0;
  for (;;) {
    if (shift > MAX_SHIFT) {
      for (let i = HEAD; i < n.length; i += 2) if (n[i] === key) return n[i + 1] as V;
      return undefined;
    }
    const bit = bitpos(hash, shift);
    if (dataOf(n) & bit) {
      const i = pairAt(n, bit);
      return n[i] === key ? (n[i + 1] as V) : undefined;
    }
    if (!(nodesOf(n) & bit)) return undefined;
    n = n[childAt(n, bit)] as Node;
    shift += BITS;
  }
};

/**
 * The nodes a batch made, which it may change in place (see {@link StringMap.set}'s `owner`): by owner, weakly,
 * so a batch's set goes with it.
 */
const madeBy = new WeakMap<object, WeakSet<Node>>();

/** `n` with `key` set to `value`; `added.n` counts a new key. Returns `n` itself when nothing changes. */
const set = <V>(
  n: Node,
  key: string,
  value: V,
  hash: number,
  shift: number,
  hashOf: (s: string) => number,
  added: { n: number; changed: boolean },
  owned: WeakSet<Node> | undefined,
): Node => {
  /** `out` kept as the batch's own, when there is a batch. */
  const mine = (out: unknown[]): Node => {
    owned?.add(out);
    return out;
  };
  const mutable = owned !== undefined && owned.has(n);
  if (shift > MAX_SHIFT) {
    for (let i = HEAD; i < n.length; i += 2) {
      if (n[i] !== key) continue;
      if (n[i + 1] === value) return n;
      added.changed = true;
      if (mutable) {
        (n as unknown[])[i + 1] = value;
        return n;
      }
      const out = n.slice();
      out[i + 1] = value;
      return mine(out);
    }
    added.n++;
    added.changed = true;
    return mine(spliced(n, n.length, 0, [key, value]));
  }
  const bit = bitpos(hash, shift);
  if (dataOf(n) & bit) {
    const i = pairAt(n, bit);
    const k = n[i] as string;
    if (k === key) {
      if (n[i + 1] === value) return n;
      added.changed = true;
      if (mutable) {
        (n as unknown[])[i + 1] = value;
        return n;
      }
      const out = n.slice();
      out[i + 1] = value;
      return mine(out);
    }
    // Two keys on one fragment: the pair moves down into a new child.
    added.n++;
    added.changed = true;
    const child = mine(pair(k, n[i + 1] as V, hashOf(k), key, value, hash, shift + BITS) as unknown[]);
    const without = spliced(n, i, 2, []);
    const out = spliced(without, without.length - indexOf(nodesOf(n), bit), 0, [child]);
    out[0] = dataOf(n) ^ bit;
    out[1] = nodesOf(n) | bit;
    return mine(out);
  }
  if (nodesOf(n) & bit) {
    const at = childAt(n, bit);
    const child = n[at] as Node;
    const next = set(child, key, value, hash, shift + BITS, hashOf, added, owned);
    if (next === child) return n;
    if (mutable) {
      (n as unknown[])[at] = next;
      return n;
    }
    const out = n.slice();
    out[at] = next;
    return mine(out);
  }
  added.n++;
  added.changed = true;
  const out = spliced(n, pairAt(n, bit), 0, [key, value]);
  out[0] = dataOf(n) | bit;
  return mine(out);
};

/** `n` without `key`; `removed.n` counts it. Returns `n` itself when the key is absent. */
const remove = (n: Node, key: string, hash: number, shift: number, removed: { n: number }): Node => {
  if (shift > MAX_SHIFT) {
    for (let i = HEAD; i < n.length; i += 2) {
      if (n[i] !== key) continue;
      removed.n++;
      return spliced(n, i, 2, []);
    }
    return n;
  }
  const bit = bitpos(hash, shift);
  if (dataOf(n) & bit) {
    const i = pairAt(n, bit);
    if (n[i] !== key) return n;
    removed.n++;
    const out = spliced(n, i, 2, []);
    out[0] = dataOf(n) ^ bit;
    return out;
  }
  if (!(nodesOf(n) & bit)) return n;
  const at = childAt(n, bit);
  const child = n[at] as Node;
  const next = remove(child, key, hash, shift + BITS, removed);
  if (next === child) return n;
  if (next.length === HEAD) {
    const out = spliced(n, at, 1, []);
    out[1] = nodesOf(n) ^ bit;
    return out;
  }
  if (next.length === HEAD + 2 && nodesOf(next) === 0) {
    // One entry left below: it moves up, held inline here (any deeper node of it would hold it alone).
    const out = spliced(spliced(n, at, 1, []), pairAt(n, bit), 0, next.slice(HEAD));
    out[0] = dataOf(n) | bit;
    out[1] = nodesOf(n) ^ bit;
    return out;
  }
  const out = n.slice();
  out[at] = next;
  return out;
};

function* entriesOf<V>(n: Node): Generator<[string, V]> {
  const pairs = dataOf(n) === 0 && nodesOf(n) === 0 ? (n.length - HEAD) / 2 : popcount(dataOf(n));
  for (let i = 0; i < pairs; i++) yield [n[HEAD + 2 * i] as string, n[HEAD + 2 * i + 1] as V];
  for (let i = HEAD + 2 * pairs; i < n.length; i++) yield* entriesOf<V>(n[i] as Node);
}

/**
 * An immutable map from strings to `V`. Iterating gives `[key, value]` pairs in no particular order (the
 * same for equal maps built the same way).
 */
export class StringMap<V> implements Iterable<[string, V]> {
  private constructor(
    private readonly root: Node,
    /** Number of entries. */
    readonly size: number,
    private readonly hashOf: (s: string) => number,
  ) {}

  /** The empty map. `hashOf` is for tests (a weak hash makes keys collide); the default is FNV-1a. */
  static empty<V>(hashOf: (s: string) => number = fnv1a): StringMap<V> {
    return new StringMap<V>(EMPTY_NODE, 0, hashOf);
  }

  /** A map of the given entries (a later entry for a key wins). */
  static of<V>(entries: Iterable<readonly [string, V]>): StringMap<V> {
    let m = StringMap.empty<V>();
    for (const [k, v] of entries) m = m.set(k, v);
    return m;
  }

  /** The value of a key, or undefined. */
  get(key: string): V | undefined {
    return get(this.root, key, this.hashOf(key));
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /**
   * The map with `key` set to `value` (this map itself when it already holds that value). `owner`: any object
   * made for a batch of changes and dropped after it; nodes this batch already copied are changed in place
   * rather than copied again. A map handed out before the batch never sees those changes; maps made during
   * the batch must not be kept apart from its last one.
   */
  set(key: string, value: V, owner?: object): StringMap<V> {
    const added = { n: 0, changed: false };
    let owned: WeakSet<Node> | undefined;
    if (owner !== undefined) {
      owned = madeBy.get(owner);
      if (owned === undefined) madeBy.set(owner, (owned = new WeakSet()));
    }
    const root = set(this.root, key, value, this.hashOf(key), 0, this.hashOf, added, owned);
    return !added.changed ? this : new StringMap(root, this.size + added.n, this.hashOf);
  }

  /** The map without `key` (this map itself when it has no such key). */
  delete(key: string): StringMap<V> {
    const removed = { n: 0 };
    const root = remove(this.root, key, this.hashOf(key), 0, removed);
    return root === this.root ? this : new StringMap(root, this.size - removed.n, this.hashOf);
  }

  [Symbol.iterator](): Iterator<[string, V]> {
    return entriesOf(this.root);
  }

  *keys(): Generator<string> {
    for (const [k] of this) yield k;
  }

  *values(): Generator<V> {
    for (const [, v] of this) yield v;
  }
}
