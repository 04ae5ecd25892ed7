// Users' lists made on their first request (the training had no time for them), held by this
// process rather than written into the model: a model stores lists only for the users its training
// listed (engine/model/layout.ts). Bounded in entries, the least recently used evicted: an evicted
// list is made again on the user's next request, from the same factors and ratings.
import { LRUCache } from 'lru-cache';

export class UserListCache {
  private readonly lists: LRUCache<string, Uint32Array>;

  constructor(readonly max: number) {
    this.lists = new LRUCache({ max: Math.max(1, max) });
  }

  get(model: string, row: number): Uint32Array | undefined {
    return this.max > 0 ? this.lists.get(`${model} ${row}`) : undefined;
  }

  set(model: string, row: number, list: Uint32Array): void {
    if (this.max > 0) this.lists.set(`${model} ${row}`, list);
  }

  get size(): number {
    return this.lists.size;
  }
}
