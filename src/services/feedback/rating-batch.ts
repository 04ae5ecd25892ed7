// Collects a request's ratings row by row, then lays them out grouped by user (request order kept
// within each user) as the store writes them: typed columns, no object per rating.
import type { BatchId, RatingBatch } from '../../store/rating-records.js';

export class RatingBatchBuilder {
  private readonly users: BatchId[] = [];
  private readonly items: BatchId[] = [];
  private readonly userAt = new Map<string, number>();
  private readonly itemAt = new Map<string, number>();
  private userOf: Uint32Array;
  private itemOf: Uint32Array;
  private ratings: Float64Array;
  private timestamps: Float64Array;
  private n = 0;

  constructor(capacity: number) {
    const c = Math.max(1, capacity);
    this.userOf = new Uint32Array(c);
    this.itemOf = new Uint32Array(c);
    this.ratings = new Float64Array(c);
    this.timestamps = new Float64Array(c);
  }

  // Position of a canonical id among the request's distinct users / items.
  user(key: string): number {
    let p = this.userAt.get(key);
    if (p === undefined) this.userAt.set(key, (p = this.users.push(key) - 1));
    return p;
  }

  item(key: string): number {
    let p = this.itemAt.get(key);
    if (p === undefined) this.itemAt.set(key, (p = this.items.push(key) - 1));
    return p;
  }

  // The same for ids known to be distinct from every id given so far (the caller dedupes them, and
  // gives either all of a kind this way or none).
  newUser(id: BatchId): number {
    return this.users.push(id) - 1;
  }

  newItem(id: BatchId): number {
    return this.items.push(id) - 1;
  }

  add(user: number, item: number, rating: number, timestamp: number): void {
    if (this.n === this.userOf.length) this.grow();
    this.userOf[this.n] = user;
    this.itemOf[this.n] = item;
    this.ratings[this.n] = rating;
    this.timestamps[this.n] = timestamp;
    this.n++;
  }

  // A counting sort by user: stable, so a later rating of the same (user, item) still wins.
  build(): RatingBatch {
    const nUsers = this.users.length;
    const n = this.n;
    const starts = new Uint32Array(nUsers + 1);
    for (let r = 0; r < n; r++) starts[this.userOf[r]! + 1]!++;
    for (let g = 0; g < nUsers; g++) starts[g + 1]! += starts[g]!;
    const next = starts.slice(0, nUsers);
    const item = new Uint32Array(n);
    const rating = new Float64Array(n);
    const timestamp = new Float64Array(n);
    for (let r = 0; r < n; r++) {
      const at = next[this.userOf[r]!]!++;
      item[at] = this.itemOf[r]!;
      rating[at] = this.ratings[r]!;
      timestamp[at] = this.timestamps[r]!;
    }
    return { users: this.users, items: this.items, starts, item, rating, timestamp, size: n };
  }

  private grow(): void {
    const c = this.userOf.length * 2;
    const more = <T extends Uint32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(c);
      b.set(a);
      return b;
    };
    this.userOf = more(this.userOf, (k) => new Uint32Array(k));
    this.itemOf = more(this.itemOf, (k) => new Uint32Array(k));
    this.ratings = more(this.ratings, (k) => new Float64Array(k));
    this.timestamps = more(this.timestamps, (k) => new Float64Array(k));
  }
}
