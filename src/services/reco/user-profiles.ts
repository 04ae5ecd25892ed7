// Users' ratings as a ranking: a user's ratings read (and held by the profile cache), folded into
// fresh factors, steered towards context items; context items read as model rows.
import { LRUCache } from 'lru-cache';
import { notFound, wrongData } from '../../errors/api-error.js';
import { foldIn, steerTowards } from '../../engine/scoring/rankings.js';
import type { LoadedModel } from '../../engine/model/registry.js';
import type { Claims } from '../../contract/claims.js';
import type { EntitiesStore } from '../../store/entities-store.js';
import type { RatingsStore } from '../../store/ratings-store.js';
import type { Profile, ProfileCache } from '../feedback/profile-cache.js';
import type { IdValue } from '../ids/id-types.js';
import { parseId, type Parsed } from '../ids/request-ids.js';
import type { Maybe } from './maybe.js';
import { NO_RATINGS, POPULAR, type Ranked } from './request.js';

const CACHED_VECTORS = 20_000;

export class UserProfiles {
  private readonly vectors = new LRUCache<string, Float32Array>({ max: CACHED_VECTORS });

  constructor(
    private readonly entities: EntitiesStore,
    private readonly ratings: RatingsStore,
    private readonly profiles: ProfileCache,
  ) {}

  // The held profile, and whether it is due for a refresh (`read` it in the background then).
  held(db: string, model: LoadedModel, user: Parsed): { profile: Profile; stale: boolean } | undefined {
    return this.profiles.get(db, user.key, model.id);
  }

  // The user's current ratings, read once however many requests ask at the same time.
  read(db: string, model: LoadedModel, user: Parsed): Promise<Profile> {
    return this.profiles.load(db, user.key, model.id, () => this.readProfile(db, model, user.key, user.value));
  }

  private async readProfile(db: string, model: LoadedModel, key: string, value: IdValue): Promise<Profile> {
    if ((await this.entities.indexOf(db, 'user', key)) === undefined) throw notFound('USER_NOT_FOUND', 'user', value);
    const rated = (await this.ratings.ofUser(db, key)) ?? [];
    const items: number[] = [], values: number[] = [];
    let signature = 0;
    for (const r of rated) {
      const i = model.itemIndex.get(r.item);
      if (i === undefined) continue;
      items.push(i);
      values.push(r.rating);
      signature = (signature * 31 + i * 7 + r.rating * 1013 + r.timestamp) % 2 ** 40;
    }
    return { key: `u${key} ${items.length} ${signature}`, items, values, count: rated.length };
  }

  // Factors folded in from the profile's ratings, steered towards the context items; popular items
  // with neither.
  ranking(model: LoadedModel, p: Profile, context: number[]): Ranked {
    if (p.items.length === 0 && !p.vector && context.length === 0) return { key: 'pop', spec: POPULAR, warnings: [NO_RATINGS], context };
    // Steered towards the context items (the mean of their unit factor rows, at the vector's length).
    const vector = context.length > 0 ? Float32Array.from(this.vector(model, p)) : this.vector(model, p);
    steerTowards(model, vector, context);
    const key = p.key === undefined || context.length > 0 ? undefined : p.key;
    return { key, spec: { kind: 'vector', vector }, warnings: [], context };
  }

  // A profile's factors, folded in once per profile (a cached profile keeps its vector).
  vector(model: LoadedModel, p: Profile): Float32Array {
    return (p.vector ??= this.foldedIn(model, p));
  }

  // Sessions sending the same ratings share factors (a fold-in solves an f × f system).
  private foldedIn(model: LoadedModel, p: Profile): Float32Array {
    if (p.items.length === 0) return new Float32Array(model.views.dims.factors);
    const key = p.key === undefined ? undefined : `${model.id} ${p.key}`;
    let v = key === undefined ? undefined : this.vectors.get(key);
    if (!v) {
      v = foldIn(model, Uint32Array.from(p.items), Float32Array.from(p.values));
      if (key !== undefined) this.vectors.set(key, v);
    }
    return v;
  }

  // Context items as model rows: IDs or {item_id} objects; unknown → ITEM_NOT_FOUND, known but newer than the model → ignored.
  contextRows(auth: Claims, db: string, model: LoadedModel, context: unknown[] | undefined): Maybe<number[]> {
    return context === undefined ? [] : this.readContext(auth, db, model, context);
  }

  private async readContext(auth: Claims, db: string, model: LoadedModel, context: unknown[]): Promise<number[]> {
    const out: number[] = [];
    for (const [k, raw] of context.entries()) {
      const id = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>).item_id : raw;
      if (id === undefined) throw wrongData('WRONG_DATA_TYPE', `context_items[${k}] must be an item id or an object with item_id`, { field: `context_items[${k}]` });
      const item = parseId(auth, 'item', id, false);
      const idx = model.itemIndex.get(item.key);
      if (idx !== undefined) out.push(idx);
      else if ((await this.entities.indexOf(db, 'item', item.key)) === undefined) throw notFound('ITEM_NOT_FOUND', 'item', item.value);
    }
    return out;
  }
}
