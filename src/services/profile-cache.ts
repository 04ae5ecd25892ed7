// Users' ratings as recommendations fold them in, kept briefly per process so a warm
// user-to-items request answers in the same tick. A write in this process drops the users it
// touched at once; writes in other processes are seen within the entry's lifetime.
import { LRUCache } from 'lru-cache';

export interface Profile {
  key: string | undefined; // cache key of its ranking (undefined: not cached)
  items: number[]; // model rows
  values: number[];
  vector?: Float32Array; // the folded-in factors, once computed
}

const HELD = 100_000;

export class ProfileCache {
  private readonly held: LRUCache<string, { model: string; profile: Profile }>;

  constructor(ttlMs: number) {
    this.held = new LRUCache({ max: HELD, ttl: ttlMs });
  }

  get(db: string, user: string, model: string): Profile | undefined {
    const e = this.held.get(`${db} ${user}`);
    return e?.model === model ? e.profile : undefined;
  }

  set(db: string, user: string, model: string, profile: Profile): void {
    this.held.set(`${db} ${user}`, { model, profile });
  }

  forget(db: string, users: Iterable<string>): void {
    for (const u of users) this.held.delete(`${db} ${u}`);
  }
}
