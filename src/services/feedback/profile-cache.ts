// Users' ratings as recommendations fold them in, kept per process so a warm user-to-items request
// answers in the same tick. An entry holds for one model and one count of the user's feedback
// changes (feedback-changes.ts): it is read once per model and change, not per request.
import { LRUCache } from 'lru-cache';
import { SharedReads } from '../../store/shared-reads.js';

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
  version: number;
  profile: Profile;
}

const HELD = 100_000;

export class ProfileCache {
  private readonly held = new LRUCache<string, Entry>({ max: HELD });
  private readonly loading = new SharedReads<Profile>();

  // The profile read at this model and version of the user's feedback, if held.
  get(db: string, user: string, model: string, version: number): Profile | undefined {
    const e = this.held.get(`${db} ${user}`);
    return e && e.model === model && e.version === version ? e.profile : undefined;
  }

  // Reads the profile once however many requests ask at the same time, and keeps it when the
  // version is known (undefined: changes are not followed yet, so nothing read may be kept).
  load(db: string, user: string, model: string, version: number | undefined, read: () => Promise<Profile>): Promise<Profile> {
    return this.loading.get(`${db} ${user} ${model} ${version}`, () =>
      read().then((profile) => {
        if (version !== undefined) this.held.set(`${db} ${user}`, { model, version, profile });
        return profile;
      }),
    );
  }

  forget(db: string, users: Iterable<string | number>): void {
    for (const u of users) this.held.delete(`${db} ${u}`);
  }
}
