// Users' ratings as recommendations fold them in, kept per process so a warm user-to-items request
// answers in the same tick. A write in this process drops the users it touched at once. Writes in
// other processes are seen once an entry is older than its lifetime: the next request still gets
// the held profile while one refresh (shared by every request that asks meanwhile) reads it again;
// an entry four lifetimes old is not used at all.
import { LRUCache } from 'lru-cache';

export interface Profile {
  key: string | undefined; // cache key of its ranking (undefined: not cached)
  items: number[]; // model rows
  values: number[];
  count: number; // ratings (or session items) given, including items newer than the model
  interactions?: { item: string; type: string }[]; // a session's, as sent
  vector?: Float32Array; // the folded-in factors, once computed
  rated?: Set<number>; // items as a set, once an exclusion needed it
}

interface Entry {
  model: string;
  profile: Profile;
  at: number; // ms
}

const HELD = 100_000;
const USABLE_LIFETIMES = 4;

export class ProfileCache {
  private readonly held = new LRUCache<string, Entry>({ max: HELD });
  private readonly loading = new Map<string, Promise<Profile>>();

  constructor(private readonly ttlMs: number) {}

  // The held profile, and whether it is due for a refresh; undefined when none is usable.
  get(db: string, user: string, model: string): { profile: Profile; stale: boolean } | undefined {
    const e = this.held.get(`${db} ${user}`);
    if (!e || e.model !== model) return undefined;
    const age = Date.now() - e.at;
    if (age > USABLE_LIFETIMES * this.ttlMs) return undefined;
    return { profile: e.profile, stale: age > this.ttlMs };
  }

  // Reads the profile once however many requests ask at the same time, and keeps it.
  load(db: string, user: string, model: string, read: () => Promise<Profile>): Promise<Profile> {
    const key = `${db} ${user}`;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = read()
        .then((profile) => {
          this.held.set(key, { model, profile, at: Date.now() });
          return profile;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  forget(db: string, users: Iterable<string | number>): void {
    for (const u of users) this.held.delete(`${db} ${u}`);
  }
}
