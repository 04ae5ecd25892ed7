// The dense indices of user and item ids this process has resolved, per database and kind.
import type { BatchId } from './rating-records.js';

// Indices of ids this process has resolved, per database and kind. Bounded: past MAX_CACHED entries in
// all, everything is dropped and filled again as requests come.
const MAX_CACHED = 2_000_000;

// A uint id may be held twice (as text from JSON, as a number from a numeric column): the same index.
export class IndexCache {
  private readonly dbs = new Map<string, { user: Map<BatchId, number>; item: Map<BatchId, number> }>();
  private size = 0;

  of(db: string, kind: 'user' | 'item'): Map<BatchId, number> {
    let d = this.dbs.get(db);
    if (!d) this.dbs.set(db, (d = { user: new Map(), item: new Map() }));
    return d[kind];
  }

  add(db: string, kind: 'user' | 'item', id: BatchId, idx: number): void {
    if (this.size >= MAX_CACHED) {
      this.dbs.clear();
      this.size = 0;
    }
    this.of(db, kind).set(id, idx);
    this.size++;
  }

  clear(): void {
    this.dbs.clear();
    this.size = 0;
  }

  forget(db: string): void {
    const d = this.dbs.get(db);
    if (d) this.size -= d.user.size + d.item.size;
    this.dbs.delete(db);
  }
}
