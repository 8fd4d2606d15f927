/**
 * A small in-process cache for lookups that nearly every request repeats (API keys, an organization's carrier
 * connections). Entries live `ttlMs` and at most `max` are kept (oldest out first). Each entry belongs to the
 * database handle it was read from: a reopened or different database never sees another one's entries, so whoever
 * owns a cache never needs to be told that the database was closed.
 */
export class ShortCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number; source: object }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    // Read through a closure, not captured: a test that moves the clock moves this cache too.
    private readonly now: () => number = () => Date.now(),
  ) {}

  get(source: object, key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.source !== source || entry.expiresAt <= this.now()) return undefined;
    return entry.value;
  }

  set(source: object, key: string, value: V): void {
    // Re-inserting keeps the map's order oldest-first, which is what eviction takes from.
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs, source });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  deleteWhere(match: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (match(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
