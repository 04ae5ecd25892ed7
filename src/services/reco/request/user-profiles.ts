// Users' ratings as a ranking: a user's ratings read (and held by the profile cache until their
// feedback changes), folded into fresh factors, steered towards context items; context items read
// as model rows. A user whose feedback has not changed since the model's data is ranked by their
// trained factors, from their precomputed list while it lasts.
import { LRUCache } from 'lru-cache';
import { notFound, wrongData } from '../../../errors/api-error.js';
import { candidatesPay } from '../../../engine/scoring/candidates.js';
import { foldIn } from '../../../engine/scoring/fold-in.js';
import { listLength, trainedFactors, userListLength } from '../../../engine/scoring/list-lengths.js';
import type { RankSpec } from '../../../engine/scoring/rankings.js';
import { steerTowards } from '../../../engine/scoring/directions.js';
import { NO_ITEM } from '../../../engine/model/layout.js';
import type { UserListCache } from './user-list-cache.js';
import { RowKey, type Scorer } from '../../../engine/scoring/scorer.js';
import type { LoadedModel } from '../../../engine/model/registry.js';
import type { Claims } from '../../../contract/claims.js';
import type { EntitiesStore } from '../../../store/entities-store.js';
import type { RatingsStore } from '../../../store/ratings-store.js';
import type { Profile, ProfileCache } from '../../feedback/profile-cache.js';
import { parseId, type Parsed } from '../../ids/request-ids.js';
import type { Maybe } from '../maybe.js';
import type { ChangesSince, FeedbackChanges } from '../../feedback/feedback-changes.js';
import { NO_RATINGS, POPULAR, type Ranked } from './request.js';

const CACHED_VECTORS = 20_000;
// A user's newest ratings a profile reads, at most: what their fold-in and the exclusion of rated items
// see. A request costs what it asks for, never what the user holds (docs/security.md); a fold-in of
// this many ratings already pins a user's taste, and the model's own factors and lists, made from all
// their ratings, serve users whose feedback did not change since.
export const PROFILE_RATINGS = 2_048;
// Sessions of more rated and context items than this are ranked in full: their items' lists would
// hold a large part of the catalogue, and gathering them would cost as much as the full ranking.
const SESSION_SEEDS_MAX = 32;

// listed: the ranking starts with the user's list of this many items, which holds no rated item.
export type TrainedRanked = Ranked & { listed: number | undefined };

export class UserProfiles {
  private readonly vectors = new LRUCache<string, Float32Array>({ max: CACHED_VECTORS });

  constructor(
    private readonly entities: EntitiesStore,
    private readonly ratings: RatingsStore,
    private readonly profiles: ProfileCache,
    private readonly feedback: FeedbackChanges,
    private readonly scorer: Scorer,
    private readonly madeLists: UserListCache,
  ) {}

  // The user's dense row: from the model for the users it covers, else read; USER_NOT_FOUND for none.
  row(db: string, model: LoadedModel, user: Parsed): Maybe<number> {
    return model.userIndex.get(user.key) ?? this.entities.indexOf(db, 'user', user.key).then((row) => known(row, user));
  }

  // Whose feedback changed since the model's data (read once per model).
  changes(db: string, model: LoadedModel): Maybe<ChangesSince> {
    return this.feedback.since(db, model);
  }

  // The model's trained factors still stand for the user: they had them, and their feedback did not
  // change since the model's data (as far as this process knows yet).
  unchanged(changes: ChangesSince, model: LoadedModel, user: Parsed, row: number): boolean {
    return row < model.views.dims.users && !changes.changed(row, user.key);
  }

  // The user's current ratings, held until their feedback changes, read once however many requests
  // ask at the same time (so a request that finds them not at hand and asks again later shares the read).
  profile(db: string, model: LoadedModel, user: Parsed, row: number, changes: ChangesSince): Maybe<Profile> {
    const version = changes.version(row);
    const held = version === undefined ? undefined : this.profiles.get(db, user.key, model.id, version);
    return held ?? this.profiles.load(db, user.key, model.id, version, () => this.readProfile(db, model, user.key));
  }

  // The profile of a user named by id (groups, property rankings).
  async read(db: string, model: LoadedModel, user: Parsed): Promise<Profile> {
    const changes = await this.feedback.since(db, model);
    return this.profile(db, model, user, await this.row(db, model, user), changes);
  }

  private async readProfile(db: string, model: LoadedModel, key: string): Promise<Profile> {
    const got = await this.ratings.ofUser(db, key, 0, PROFILE_RATINGS);
    const rated = got?.ratings ?? [];
    const items: number[] = [],
      values: number[] = [];
    let signature = 0;
    for (const r of rated) {
      const i = model.itemIndex.get(r.item);
      if (i === undefined) continue;
      items.push(i);
      values.push(r.rating);
      signature = (signature * 31 + i * 7 + r.rating * 1013 + r.timestamp) % 2 ** 40;
    }
    return { key: `u${key} ${items.length} ${signature}`, items, values, count: got?.total ?? 0 };
  }

  // Factors folded in from the profile's ratings, steered towards the context items; popular items
  // with neither. candidates: a session's, ranked first from the candidates its rated and context
  // items give (rankings.ts sessionRanking) when the model has item lists and the catalogue is
  // large enough for them to pay.
  ranking(model: LoadedModel, p: Profile, context: number[], candidates = false): Ranked {
    if (p.items.length === 0 && !p.vector && context.length === 0) return { key: 'pop', spec: POPULAR, warnings: [NO_RATINGS], context };
    const seeds = p.items.length + context.length;
    const fromCandidates =
      candidates && seeds > 0 && seeds <= SESSION_SEEDS_MAX && candidatesPay(model.rows, seeds, model.views.dims.itemList);
    // A session's rated items as rows, made once: its fold-in reads them, its candidates start from them.
    const rows = fromCandidates && context.length === 0 && p.vector === undefined ? Uint32Array.from(p.items) : undefined;
    // Steered towards the context items (the mean of their unit factor rows, at the vector's length).
    const vector = context.length > 0 ? Float32Array.from(this.vector(model, p)) : this.vector(model, p, rows);
    steerTowards(model, vector, context);
    const key = p.key === undefined || context.length > 0 ? undefined : p.key;
    if (fromCandidates) {
      const spec: RankSpec = {
        kind: 'session',
        vector,
        seeds: rows ?? Uint32Array.from(context.length > 0 ? [...p.items, ...context] : p.items),
      };
      return { key: key === undefined ? undefined : `c${key}`, spec, warnings: [], context, because: { rows: p.items, values: p.values } };
    }
    const source = candidates ? 'session' : 'fold_in';
    return { key, spec: { kind: 'vector', vector }, warnings: [], context, source, because: { rows: p.items, values: p.values } };
  }

  // A user ranked by their trained factors (row < the model's users): their list first when it was
  // computed and rated items are left out (`listed`: its length, where their ratings start to
  // matter); popular items for a user who had no ratings.
  trainedRanking(model: LoadedModel, row: number, excludeRated: boolean): TrainedRanked {
    const v = model.views;
    const vector = trainedFactors(v, row);
    if (!vector) return { key: 'pop', spec: POPULAR, warnings: [NO_RATINGS], context: [], listed: undefined };
    // Ranked by the trained factors, without a list.
    const byFactors = (): TrainedRanked => ({
      key: new RowKey('t', row),
      spec: { kind: 'vector', vector },
      warnings: [],
      context: [],
      listed: undefined,
      source: 'user_factors',
    });
    if (!excludeRated) return byFactors();
    const trained = userListLength(v, row);
    const made = trained > 0 ? undefined : this.madeLists.get(model.id, row);
    const listed = made ? listLength(made) : trained;
    if (listed > 0)
      return { key: new RowKey('l', row), spec: { kind: 'listed', user: row, vector, list: made }, warnings: [], context: [], listed };
    return byFactors();
  }

  // The list a training had no time for, made once from the user's trained factors and ratings and
  // held by this process (UserListCache), so their next requests take it as a trained one.
  async makeList(model: LoadedModel, row: number, p: Profile): Promise<void> {
    const v = model.views;
    const vector = trainedFactors(v, row);
    if (v.dims.userList === 0 || !vector || userListLength(v, row) > 0 || this.madeLists.get(model.id, row)) return;
    const rated = (p.rated ??= new Set(p.items));
    const r = await this.scorer.rank(model, { kind: 'vector', vector }, v.dims.userList + rated.size);
    if (!this.madeLists.get(model.id, row)) this.madeLists.set(model.id, row, unratedHead(v.dims.userList, r.items, rated));
  }

  // A profile's factors, folded in once per profile (a cached profile keeps its vector).
  // rows: p.items as a Uint32Array, when the caller has made them.
  vector(model: LoadedModel, p: Profile, rows?: Uint32Array): Float32Array {
    return (p.vector ??= this.foldedIn(model, p, rows));
  }

  // Sessions sending the same ratings share factors (a fold-in solves an f × f system).
  private foldedIn(model: LoadedModel, p: Profile, rows: Uint32Array | undefined): Float32Array {
    if (p.items.length === 0) return new Float32Array(model.views.dims.factors);
    const key = p.key === undefined ? undefined : `${model.id} ${p.key}`;
    let v = key === undefined ? undefined : this.vectors.get(key);
    if (!v) {
      v = foldIn(model, rows ?? heldCopy(heldRows, p.items, Uint32Array), heldCopy(heldValues, p.values, Float32Array));
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
      if (id === undefined)
        throw wrongData('WRONG_DATA_TYPE', `context_items[${k}] must be an item id or an object with item_id`, {
          field: `context_items[${k}]`,
        });
      const item = parseId(auth, 'item', id, false);
      const idx = model.itemIndex.get(item.key);
      if (idx !== undefined) out.push(idx);
      else if ((await this.entities.indexOf(db, 'item', item.key)) === undefined) throw notFound('ITEM_NOT_FOUND', 'item', item.value);
    }
    return out;
  }
}

// A fold-in's items and values, held per count for sessions and users of few items: the fold-in
// only reads them while it runs, and two fresh typed arrays were two more objects for the
// collector on every random session.
const HELD_MAX = 64;
const heldRows: Uint32Array[] = [];
const heldValues: Float32Array[] = [];
function heldCopy<T extends Uint32Array | Float32Array>(held: T[], xs: number[], make: { new (n: number): T; from(xs: number[]): T }): T {
  if (xs.length > HELD_MAX) return make.from(xs);
  const out = (held[xs.length] ??= new make(xs.length));
  out.set(xs);
  return out;
}

// The first n items of a ranking the user had not rated, as their list (NO_ITEM after the last,
// as in a model's lists: a shorter list holds every item there is).
function unratedHead(n: number, ranked: Uint32Array, rated: Set<number>): Uint32Array {
  const out = new Uint32Array(n).fill(NO_ITEM);
  let k = 0;
  for (let j = 0; j < ranked.length && k < n; j++) if (!rated.has(ranked[j]!)) out[k++] = ranked[j]!;
  return out;
}

function known(row: number | undefined, user: Parsed): number {
  if (row === undefined) throw notFound('USER_NOT_FOUND', 'user', user.value);
  return row;
}
