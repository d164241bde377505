/**
 * A map that keeps at most `capacity` entries, forgetting the least recently used one beyond it (a `Map`
 * keeps insertion order, so re-inserting on use makes the first key the oldest). For memos on the request
 * path: bounded whatever the clients send.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  /** The value of a key, marked as just used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Every entry, least recently used first (a snapshot: deleting while iterating is safe). */
  all(): readonly (readonly [K, V])[] {
    return [...this.entries];
  }
}
