/**
 * A persistent sorted map (a B+tree with order statistics): `set` and `delete` return a new map that shares
 * every node but the path they touch with the old one, which stays as it was, so each snapshot of a search
 * keeps its own orders at little cost. It exists for speed: a node holds up to {@link FANOUT} keys in one
 * array, so a search walks few nodes and a change copies a handful of small arrays (a red-black tree allocates
 * a node per level, about 17 at 100,000 keys, each compared through a generic order). Each branch keeps its
 * children's sizes, so the i-th entry is found in O(log n), as a page needs.
 *
 * Changes within one batch can share their copies: pass the same `owner` (any object, made for the batch and
 * dropped after it) to every `set`/`delete` of the batch, and nodes already copied for it are changed in place
 * instead of copied again. A map handed out before the batch never sees those changes (its nodes have another
 * owner or none); maps made during the batch must not be kept apart from its last one.
 */

/** Keys per node at most (a full node splits in two halves). */
export const FANOUT = 32;

interface Leaf<K, V> {
  owner: object | undefined;
  keys: K[];
  vals: V[];
}

interface Branch<K, V> {
  owner: object | undefined;
  /** The least key under each child. */
  keys: K[];
  kids: Node<K, V>[];
  /** Entries under each child. */
  sizes: number[];
}

type Node<K, V> = Leaf<K, V> | Branch<K, V>;

const isBranch = <K, V>(n: Node<K, V>): n is Branch<K, V> => "kids" in n;

/** Counts of the work done, for tests that a change stays O(log n) (node copies and keys compared). */
export const sortedIndexStats = { copies: 0 };

/** Index of the first key >= k (k's slot in a leaf). */
const lowerBound = <K>(keys: readonly K[], k: K, cmp: (a: K, b: K) => number): number => {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(keys[mid]!, k) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/** The child of a branch whose range holds k: the last whose least key is <= k (the first for a smaller key). */
const childFor = <K>(keys: readonly K[], k: K, cmp: (a: K, b: K) => number): number => {
  let lo = 1;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(keys[mid]!, k) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
};

/** A node the owner may change: the node itself when it is the owner's, else a copy that is. */
const own = <K, V, N extends Node<K, V>>(n: N, owner: object | undefined): N => {
  if (owner !== undefined && n.owner === owner) return n;
  sortedIndexStats.copies++;
  return (isBranch(n)
    ? { owner, keys: n.keys.slice(), kids: n.kids.slice(), sizes: n.sizes.slice() }
    : { owner, keys: n.keys.slice(), vals: (n as Leaf<K, V>).vals.slice() }) as N;
};

const sizeOf = <K, V>(n: Node<K, V>): number => {
  if (!isBranch(n)) return n.keys.length;
  let s = 0;
  for (const x of n.sizes) s += x;
  return s;
};

interface Change<K, V> {
  /** The node after the change (undefined: unchanged). */
  node: Node<K, V> | undefined;
  /** The right half, when the node split. */
  split: Node<K, V> | undefined;
  /** Entries added (1) or removed (-1), or 0. */
  delta: number;
}

const set = <K, V>(n: Node<K, V>, k: K, v: V, cmp: (a: K, b: K) => number, owner: object | undefined, out: Change<K, V>): void => {
  if (!isBranch(n)) {
    const i = lowerBound(n.keys, k, cmp);
    if (i < n.keys.length && cmp(n.keys[i]!, k) === 0) {
      if (n.vals[i] === v && n.keys[i] === k) {
        out.node = undefined;
        out.split = undefined;
        out.delta = 0;
        return;
      }
      // An equal key replaces the one held (a newer object of equal order).
      const m = own(n, owner);
      m.keys[i] = k;
      m.vals[i] = v;
      out.node = m;
      out.split = undefined;
      out.delta = 0;
      return;
    }
    const m = own(n, owner);
    m.keys.splice(i, 0, k);
    m.vals.splice(i, 0, v);
    out.delta = 1;
    out.node = m;
    out.split = undefined;
    if (m.keys.length > FANOUT) {
      const half = m.keys.length >>> 1;
      out.split = { owner, keys: m.keys.splice(half), vals: m.vals.splice(half) };
    }
    return;
  }
  const i = childFor(n.keys, k, cmp);
  set(n.kids[i]!, k, v, cmp, owner, out);
  if (out.node === undefined) return;
  const m = own(n, owner);
  const child = out.node;
  m.kids[i] = child;
  m.keys[i] = child.keys[0]!;
  if (out.split === undefined) m.sizes[i]! += out.delta;
  else {
    const right = out.split;
    m.sizes[i] = sizeOf(child);
    m.kids.splice(i + 1, 0, right);
    m.keys.splice(i + 1, 0, right.keys[0]!);
    m.sizes.splice(i + 1, 0, sizeOf(right));
  }
  out.node = m;
  out.split = undefined;
  if (m.kids.length > FANOUT) {
    const half = m.kids.length >>> 1;
    out.split = { owner, keys: m.keys.splice(half), kids: m.kids.splice(half), sizes: m.sizes.splice(half) };
  }
};

/**
 * Removes k. Nodes left empty are dropped; others may stay under half full (removals are rare here: an offer
 * refined into another group), which never deepens the tree.
 */
const remove = <K, V>(n: Node<K, V>, k: K, cmp: (a: K, b: K) => number, owner: object | undefined, out: Change<K, V>): void => {
  out.split = undefined;
  if (!isBranch(n)) {
    const i = lowerBound(n.keys, k, cmp);
    if (i === n.keys.length || cmp(n.keys[i]!, k) !== 0) {
      out.node = undefined;
      out.delta = 0;
      return;
    }
    const m = own(n, owner);
    m.keys.splice(i, 1);
    m.vals.splice(i, 1);
    out.node = m;
    out.delta = -1;
    return;
  }
  const i = childFor(n.keys, k, cmp);
  remove(n.kids[i]!, k, cmp, owner, out);
  if (out.node === undefined) return;
  const m = own(n, owner);
  const child = out.node;
  if (child.keys.length === 0) {
    m.kids.splice(i, 1);
    m.keys.splice(i, 1);
    m.sizes.splice(i, 1);
  } else {
    m.kids[i] = child;
    m.keys[i] = child.keys[0]!;
    m.sizes[i]! += out.delta;
  }
  out.node = m;
};

const EMPTY_LEAF: Leaf<never, never> = { owner: undefined, keys: [], vals: [] };

/** An immutable sorted map from `K` to `V`; iteration is in ascending key order. */
export class SortedIndex<K, V> implements Iterable<[K, V]> {
  private constructor(
    private readonly root: Node<K, V>,
    /** Number of entries. */
    readonly size: number,
    private readonly cmp: (a: K, b: K) => number,
  ) {}

  /** The empty map ordered by `compare`. */
  static empty<K, V>(compare: (a: K, b: K) => number): SortedIndex<K, V> {
    return new SortedIndex<K, V>(EMPTY_LEAF as Leaf<K, V>, 0, compare);
  }

  /** The value of a key, or undefined. */
  get(k: K): V | undefined {
    let n = this.root;
    while (isBranch(n)) n = n.kids[childFor(n.keys, k, this.cmp)]!;
    const i = lowerBound(n.keys, k, this.cmp);
    return i < n.keys.length && this.cmp(n.keys[i]!, k) === 0 ? n.vals[i] : undefined;
  }

  has(k: K): boolean {
    let n = this.root;
    while (isBranch(n)) n = n.kids[childFor(n.keys, k, this.cmp)]!;
    const i = lowerBound(n.keys, k, this.cmp);
    return i < n.keys.length && this.cmp(n.keys[i]!, k) === 0;
  }

  /**
   * The map with `k` set to `v`, a key of equal order replaced by `k` (this map itself when it already holds
   * that key and value). See `owner` above.
   */
  set(k: K, v: V, owner?: object): SortedIndex<K, V> {
    const out: Change<K, V> = { node: undefined, split: undefined, delta: 0 };
    set(this.root, k, v, this.cmp, owner, out);
    if (out.node === undefined) return this;
    let root = out.node;
    if (out.split !== undefined) {
      const right = out.split;
      root = { owner, keys: [root.keys[0]!, right.keys[0]!], kids: [root, right], sizes: [sizeOf(root), sizeOf(right)] };
    }
    return new SortedIndex(root, this.size + out.delta, this.cmp);
  }

  /** The map without `k` (this map itself when it has no such key). */
  delete(k: K, owner?: object): SortedIndex<K, V> {
    const out: Change<K, V> = { node: undefined, split: undefined, delta: 0 };
    remove(this.root, k, this.cmp, owner, out);
    if (out.node === undefined) return this;
    let root = out.node;
    while (isBranch(root) && root.kids.length === 1) root = root.kids[0]!;
    if (isBranch(root) && root.kids.length === 0) root = EMPTY_LEAF as Leaf<K, V>;
    return new SortedIndex(root, this.size + out.delta, this.cmp);
  }

  /** Entries in order from the `from`-th (0-based): O(log n) to the first, O(1) amortized each after. */
  *entries(from = 0): Generator<[K, V], void, undefined> {
    if (from >= this.size) return;
    const path: { node: Branch<K, V>; at: number }[] = [];
    let n = this.root;
    let skip = Math.max(0, from);
    while (isBranch(n)) {
      let i = 0;
      while (i < n.sizes.length - 1 && skip >= n.sizes[i]!) skip -= n.sizes[i++]!;
      path.push({ node: n, at: i });
      n = n.kids[i]!;
    }
    let leaf: Leaf<K, V> = n;
    let i = skip;
    for (;;) {
      for (; i < leaf.keys.length; i++) yield [leaf.keys[i]!, leaf.vals[i]!];
      // The next leaf: up to the first branch with a child to the right, then down its leftmost path.
      let top = path.pop();
      while (top && top.at + 1 >= top.node.kids.length) top = path.pop();
      if (!top) return;
      top.at++;
      path.push(top);
      let next = top.node.kids[top.at]!;
      while (isBranch(next)) {
        path.push({ node: next, at: 0 });
        next = next.kids[0]!;
      }
      leaf = next;
      i = 0;
    }
  }

  [Symbol.iterator](): Iterator<[K, V]> {
    return this.entries(0);
  }

  *keys(): Generator<K, void, undefined> {
    for (const [k] of this.entries(0)) yield k;
  }

  *values(): Generator<V, void, undefined> {
    for (const [, v] of this.entries(0)) yield v;
  }

  /** The keys in order, as an array. */
  keyArray(): K[] {
    const out: K[] = [];
    const walk = (n: Node<K, V>): void => {
      if (!isBranch(n)) for (const k of n.keys) out.push(k);
      else for (const c of n.kids) walk(c);
    };
    walk(this.root);
    return out;
  }

  /** Depth of the tree (1: one leaf); for tests that it stays logarithmic. */
  depth(): number {
    let d = 1;
    let n = this.root;
    while (isBranch(n)) {
      n = n.kids[0]!;
      d++;
    }
    return d;
  }
}

/** Plain string order (code units), as `<` compares. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
