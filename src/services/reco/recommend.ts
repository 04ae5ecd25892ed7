// Recommendations from the served model: one ranking per query (cached per model version), then
// filters, exclusions and pagination over it. Item-to-items answers in the same tick when the model,
// the item definitions and the columnar view are warm (pipelining clients need that); the rest, and
// every miss, answer after reading what they need.
import { LRUCache } from 'lru-cache';
import { notFound, unavailable, wrongData } from '../../errors/api-error.js';
import { foldIn, meanDirection, rank, rankWork, type Ranking, type RankSpec } from '../../engine/scoring/rankings.js';
import type { ScoringPool } from '../../engine/scoring/pool.js';
import type { LoadedModel, ModelRegistry } from '../../engine/model/registry.js';
import type { Claims } from '../../contract/claims.js';
import type { EntitiesStore } from '../../store/entities-store.js';
import type { RatingsStore } from '../../store/ratings-store.js';
import type { Catalogues } from '../catalogue/catalogues.js';
import type { CatalogueView } from '../catalogue/catalogue-view.js';
import type { PropertyDef } from '../../store/properties-store.js';
import { decodeCursor, encodeCursor } from '../ids/cursors.js';
import { compileFilters, RECO_OPS } from '../catalogue/filters.js';
import { compileReranking, diversify, type DiversityRule } from './reranking.js';
import type { IdValue } from '../ids/id-types.js';
import { parseId, pathOwner, shownId, type Parsed } from '../ids/request-ids.js';
import type { InteractionRuleService } from '../feedback/interaction-rules.js';
import type { Profile, ProfileCache } from '../feedback/profile-cache.js';
import type { RecoPlanner, Subject } from './planner.js';
import { merge, type Plan, type Runtime } from '../scenarios/scenario-walk.js';
import type { PrecomputedAnswer, TableService } from './precomputed-tables.js';
import type { TableKind } from '../../store/tables-store.js';

// What a request asks for (its runtime parameters), undefined where it says nothing.
export interface RecoQuery extends Runtime {
  cursor?: string;
  userId?: unknown; // selects the A/B group and what scenarios ask about the user; never personalises
  explain?: boolean; // answer with evaluated_scenarios
}

// What a request runs with once its scenarios are applied.
type Want = Plan & { amt: number; cursor?: string; explain?: boolean };
const DEFAULT_AMT = 10;

export interface SessionInput {
  ratings?: unknown[];
  interactions?: unknown[];
  user_properties?: Record<string, unknown>;
}

export type RecoAnswer = {
  items_id: IdValue[];
  next_cursor: string;
  warnings: string[];
  evaluated_scenarios?: string[];
};

// What shapes a ranking into a page besides exclusions: filters and reranking rules, both read
// against the catalogue's columnar view of items.
interface Shape {
  keep?: (item: number) => boolean;
  rules?: DiversityRule[];
  valueOf?: (item: number, seq: number) => unknown;
  key?: string; // what the shape is made of (filters, rules, catalogue version), for caching its orders
}

// A diversified order (a prefix of every longer one: each step looks at the same window of candidates)
// and what the walk behind it found.
interface Diversified {
  order: number[];
  candidates: number;
  exhausted: boolean;
}
const NOT_WARM = Symbol('not warm');

// Rankings start this deep and grow fourfold when filters or pages use them up.
const FIRST_DEPTH = 128;
const CACHED_RANKINGS = 20_000;
const CACHED_MASKS = 1000;
const NO_RATINGS = 'no ratings to personalise with: most popular items';
const POPULAR: RankSpec = { kind: 'popular' };
// Sessions with up to this many rated items get their ranking cached by content.
const SESSION_KEY_MAX = 64;
// Candidates the diversity reranking chooses among at each step; fixed, so that the order (and so
// every page of it) does not depend on the page size.
const DIVERSITY_WINDOW = 32;

// One page to answer: the ranking to walk and what shapes it.
interface PageJob {
  auth: Claims;
  model: LoadedModel;
  key: string | undefined; // of the cached ranking (undefined: not cached)
  spec: RankSpec;
  q: Want;
  shape: Shape;
  exclude: Set<number> | undefined;
  warnings: string[];
}

// A page needs a deeper ranking than the one at hand, which only the scoring pool can give.
class NeedDeeper {
  constructor(readonly depth: number) {}
}
// Items whose values a property ranking looks at.
const VALUE_DEPTH = 1000;


export class RecommendService {
  private readonly rankings = new LRUCache<string, Ranking>({ max: CACHED_RANKINGS });
  private readonly vectors = new LRUCache<string, Float32Array>({ max: CACHED_RANKINGS });
  private readonly masks = new LRUCache<string, FilterMask>({ max: CACHED_MASKS });
  private readonly passing = new WeakMap<Set<number>, Map<string, { positions: number[]; scanned: number }>>();
  // Reranking rules compiled per rule list (a scenario's list is the same object every request).
  private readonly rerankings = new WeakMap<object, { defs: ReadonlyMap<string, PropertyDef>; rules: DiversityRule[] }>();
  private readonly diversified = new LRUCache<string, Diversified>({ max: CACHED_RANKINGS });

  constructor(
    private readonly registry: ModelRegistry,
    private readonly catalogues: Catalogues,
    private readonly entities: EntitiesStore,
    private readonly ratings: RatingsStore,
    private readonly rules: InteractionRuleService,
    private readonly profiles: ProfileCache,
    private readonly scoring: ScoringPool,
    private readonly planner: RecoPlanner,
    private readonly tables: TableService,
    // Rankings of up to this many multiply-adds run on the event loop; larger ones in the scoring
    // pool. At the default (about 0.3 ms) a pool round trip costs as much as the ranking, and under
    // load the pool puts the other cores to work (bench/RESULTS.md).
    private readonly inlineWork: number,
  ) {}

  // GET recommendation/items/<item_id>/items/: items most similar to the item, never the item itself.
  itemToItems(auth: Claims, db: string, rawItem: string, q: RecoQuery): RecoAnswer | Promise<RecoAnswer> {
    const item = parseId(auth, 'item', rawItem, false);
    const user = this.requestUser(auth, q);
    const model = this.registry.held(db);
    const idx = model?.itemIndex.get(item.key);
    if (model && idx !== undefined) {
      const plan = this.planner.plan(db, 'item_to_items', q, { user, item: idx });
      if (!(plan instanceof Promise) && plan.excludeTypes.length === 0) {
        const w = want(q, plan);
        const shape = this.shapeNow(db, w);
        if (shape !== NOT_WARM) return this.page(auth, model, `i${idx}`, { kind: 'similar', item: idx }, w, shape, undefined, plan.warnings);
      }
    }
    return this.itemToItemsLater(auth, db, item.key, item.value, user, q);
  }

  private async itemToItemsLater(auth: Claims, db: string, key: string, value: IdValue, user: string | undefined, q: RecoQuery): Promise<RecoAnswer> {
    const model = await this.model(db);
    const idx = model.itemIndex.get(key) ?? (await this.entities.indexOf(db, 'item', key));
    const who: Subject = { user, item: idx };
    const w = want(q, await this.planner.plan(db, 'item_to_items', q, who));
    const shape = await this.shape(db, w); // a bad filter is named even for an unknown item
    if (idx === undefined) throw notFound('ITEM_NOT_FOUND', 'item', value);
    const exclude = await this.interacted(db, model, w, who, undefined);
    if (model.itemIndex.has(key)) return this.page(auth, model, `i${idx}`, { kind: 'similar', item: idx }, w, shape, exclude, w.warnings);
    const warning = `item ${JSON.stringify(value)} is newer than the model: most popular items until a training covers it`;
    return this.page(auth, model, 'pop', POPULAR, w, shape, exclude, [...w.warnings, warning]);
  }

  // GET recommendation/users/<user_id>/items/: the user's current ratings folded into fresh factors
  // (what training would give them now), so new feedback counts at once.
  userToItems(auth: Claims, db: string, rawUser: string, q: RecoQuery, context?: unknown[]): RecoAnswer | Promise<RecoAnswer> {
    const user = pathOwner(auth, 'user', rawUser, false);
    if (context === undefined) {
      const model = this.registry.held(db);
      const held = model && this.profiles.get(db, user.key, model.id);
      const plan = held && this.planner.plan(db, 'profile_to_items', q, { user: user.key, nRatings: () => held.profile.count });
      if (model && held && plan && !(plan instanceof Promise) && plan.excludeTypes.length === 0) {
        const w = want(q, plan);
        const shape = this.shapeNow(db, w);
        if (shape !== NOT_WARM) {
          const profile = held.profile;
          if (held.stale) void this.userProfile(db, model, user).catch(() => undefined); // the next request gets it
          const ranked = this.profileRanking(model, profile, []);
          return this.page(auth, model, ranked.key, ranked.spec, w, shape, this.excluded(w, profile, []), withAll(plan.warnings, ranked.warnings));
        }
      }
    }
    return this.userToItemsLater(auth, db, user, q, context);
  }

  private async userToItemsLater(auth: Claims, db: string, user: Parsed, q: RecoQuery, context?: unknown[]): Promise<RecoAnswer> {
    const model = await this.model(db);
    const profile = await this.userProfile(db, model, user);
    const who: Subject = { user: user.key, nRatings: () => profile.count };
    const w = want(q, await this.planner.plan(db, context === undefined ? 'profile_to_items' : 'profile_to_items_w_ctx_items', q, who));
    const shape = await this.shape(db, w);
    const ranked = this.profileRanking(model, profile, await this.contextRows(auth, db, model, context));
    const exclude = await this.interacted(db, model, w, who, this.excluded(w, profile, ranked.context));
    return this.page(auth, model, ranked.key, ranked.spec, w, shape, exclude, withAll(w.warnings, ranked.warnings));
  }

  // POST recommendation/sessions/items/: the session's ratings, or its interactions through the
  // database's interaction rules, folded in like a user's; nothing is stored.
  async sessionToItems(auth: Claims, db: string, s: SessionInput, q: RecoQuery, context?: unknown[]): Promise<RecoAnswer> {
    const model = await this.model(db);
    const profile = await this.sessionProfile(auth, db, model, s);
    const who = this.sessionSubject(auth, q, s, profile);
    const w = want(q, await this.planner.plan(db, context === undefined ? 'session_to_items' : 'session_to_items_w_ctx_items', q, who));
    const shape = await this.shape(db, w);
    const ranked = this.profileRanking(model, profile, await this.contextRows(auth, db, model, context));
    const exclude = await this.interacted(db, model, w, who, this.excluded(w, profile, ranked.context));
    return this.page(auth, model, ranked.key, ranked.spec, w, shape, exclude, withAll(w.warnings, ranked.warnings));
  }

  // GET recommendation/users/<user_id>/items-properties/<property>/: values of the property,
  // ranked by how high the items holding them rank for the user.
  async userToProperties(auth: Claims, db: string, rawUser: string, property: string, q: RecoQuery) {
    const user = pathOwner(auth, 'user', rawUser, false);
    const model = await this.model(db);
    const profile = await this.userProfile(db, model, user);
    const who: Subject = { user: user.key, nRatings: () => profile.count };
    const w = want(q, await this.planner.plan(db, 'profile_to_item_properties', q, who));
    return this.rankValues(db, model, this.profileRanking(model, profile, []), property, w);
  }

  async sessionToProperties(auth: Claims, db: string, s: SessionInput, property: string, q: RecoQuery) {
    const model = await this.model(db);
    const profile = await this.sessionProfile(auth, db, model, s);
    const w = want(q, await this.planner.plan(db, 'session_to_item_properties', q, this.sessionSubject(auth, q, s, profile)));
    return this.rankValues(db, model, this.profileRanking(model, profile, []), property, w);
  }

  // POST recommendation/users-groups/items/: items for several users at once.
  async groupToItems(auth: Claims, db: string, rawUsers: unknown[], consensus: number, q: RecoQuery): Promise<RecoAnswer> {
    const model = await this.model(db);
    const who: Subject = { user: this.requestUser(auth, q) };
    const w = want(q, await this.planner.plan(db, 'profiles_group_to_items', q, who));
    const shape = await this.shape(db, w);
    const profiles: Profile[] = [];
    for (const raw of rawUsers) profiles.push(await this.userProfile(db, model, parseId(auth, 'user', raw, false)));
    const rated = profiles.filter((p) => p.items.length > 0);
    const exclude = await this.interacted(db, model, w, who, w.excludeRated ? new Set(profiles.flatMap((p) => p.items)) : undefined);
    if (rated.length === 0) return this.page(auth, model, 'pop', POPULAR, w, shape, exclude, withAll(w.warnings, [NO_RATINGS]));
    const vectors = rated.map((p) => foldIn(model, Uint32Array.from(p.items), Float32Array.from(p.values)));
    const key = `g${consensus} ${rated.map((p) => p.key).sort().join('|')}`;
    return this.page(auth, model, key, { kind: 'group', vectors, consensus }, w, shape, exclude, w.warnings);
  }

  // GET recommendation/precomputed/{items,users}/<id>/items/: a precomputed table's row, cut to the
  // plan's amt and passed through its filters and exclusions (the table comes from the request or
  // its scenarios). Warm reads answer in the same tick.
  precomputed(auth: Claims, db: string, kind: TableKind, rawId: string, q: RecoQuery): PrecomputedAnswer | Promise<PrecomputedAnswer> {
    const recoType = kind === 'item_to_items' ? 'precomputed_item_to_items' : 'precomputed_profile_to_items';
    const id = kind === 'item_to_items' ? parseId(auth, 'item', rawId, false) : pathOwner(auth, 'user', rawId, false);
    const user = kind === 'item_to_items' ? this.requestUser(auth, q) : id.key;
    const item = kind === 'item_to_items' ? this.registry.held(db)?.itemIndex.get(id.key) : undefined;
    // A table row is answered whole unless a scenario sets amt.
    const answer = (w: Plan, shape: Shape): PrecomputedAnswer | Promise<PrecomputedAnswer> => {
      const read = kind === 'item_to_items' ? this.tables.forItem(auth, db, rawId, w.table, shape.keep, w.amt) : this.tables.forUser(auth, db, rawId, w.table, shape.keep, w.amt);
      const note = (a: PrecomputedAnswer) => ({ ...a, warnings: withAll(w.warnings, a.warnings, w.reranking.length > 0 ? ['reranking does not apply to precomputed tables'] : []) });
      return read instanceof Promise ? read.then(note) : note(read);
    };
    if (kind === 'profile_to_items' || item !== undefined) {
      const plan = this.planner.plan(db, recoType, q, { user, item });
      const shape = plan instanceof Promise || plan.excludeTypes.length > 0 ? NOT_WARM : this.shapeNow(db, { ...want(q, plan), reranking: [] });
      if (shape !== NOT_WARM) return answer(plan as Plan, shape);
    }
    return (async () => {
      const who: Subject = { user, item: kind === 'item_to_items' ? (item ?? (await this.entities.indexOf(db, 'item', id.key))) : undefined };
      const w = await this.planner.plan(db, recoType, q, who);
      const shape = await this.shape(db, { ...want(q, w), reranking: [] });
      const model = w.excludeTypes.length > 0 ? await this.model(db) : undefined;
      const exclude = model && (await this.interacted(db, model, w, who, undefined));
      const keep = exclude ? (i: number) => !exclude.has(i) && (!shape.keep || shape.keep(i)) : shape.keep;
      return answer(w, { keep });
    })();
  }

  // POST recommendation/items-properties/items/: items like those holding the given property values
  // (the mean direction of every item that holds one of them). No reco type: scenarios do not apply.
  async propertiesToItems(auth: Claims, db: string, values: Record<string, unknown>, rq: RecoQuery): Promise<RecoAnswer> {
    const q = want(rq, merge(rq, undefined, undefined));
    const model = await this.model(db);
    const shape = await this.shape(db, q);
    const cat = this.catalogues.get(db);
    const defs = (await cat.definitions('item')) ?? new Map<string, PropertyDef>();
    const view = await cat.view('item');
    const wanted = wantedValues(values, defs, 'ITEM_PROPERTY_NOT_FOUND');
    const holders: number[] = [];
    for (let i = 0; i < model.views.dims.items; i++) {
      const at = view.at(i);
      if (wanted.some((w) => holds(at, w))) holders.push(i);
    }
    if (holders.length === 0) return this.page(auth, model, 'pop', POPULAR, q, shape, undefined, ['no item holds these property values: most popular items']);
    const direction = meanDirection(model, holders);
    return this.page(auth, model, undefined, { kind: 'vector', vector: direction }, q, shape, undefined, []);
  }

  // The user a request names in user_id (a frontend token's own user only).
  private requestUser(auth: Claims, q: RecoQuery): string | undefined {
    const raw = q.userId;
    if (raw === undefined || raw === null || raw === '') return undefined;
    return pathOwner(auth, 'user', typeof raw === 'string' ? raw : String(raw), false).key;
  }

  private sessionSubject(auth: Claims, q: RecoQuery, s: SessionInput, profile: Profile): Subject {
    return {
      user: this.requestUser(auth, q),
      nRatings: () => profile.count,
      properties: s.user_properties,
      interactions: profile.interactions,
    };
  }

  // `base` and the items the subject interacted with in the plan's interaction types.
  private async interacted(db: string, model: LoadedModel, plan: Plan, who: Subject, base: Set<number> | undefined): Promise<Set<number> | undefined> {
    const keys = await this.planner.interacted(db, plan, who);
    if (!keys || keys.size === 0) return base;
    const out = new Set(base);
    for (const k of keys) {
      const i = model.itemIndex.get(k);
      if (i !== undefined) out.add(i);
    }
    return out;
  }

  private userProfile(db: string, model: LoadedModel, user: Parsed): Promise<Profile> {
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

  private async sessionProfile(auth: Claims, db: string, model: LoadedModel, s: SessionInput): Promise<Profile> {
    if (s.ratings !== undefined && s.interactions !== undefined) {
      throw wrongData('WRONG_PARAMETER', 'send either ratings or interactions, not both', { field: 'interactions' });
    }
    const alike = await this.usersAlike(db, model, s.user_properties);
    const interactions = s.interactions === undefined ? undefined : this.sessionInteractions(auth, s.interactions);
    const given = interactions !== undefined ? await this.interactionRatings(db, interactions) : this.sessionRatings(auth, s.ratings ?? []);
    const items: number[] = [], values: number[] = [];
    for (const [key, rating] of given) {
      const i = model.itemIndex.get(key);
      if (i === undefined) continue;
      items.push(i);
      values.push(rating);
    }
    // Cold start: a session with nothing rated is ranked like the users sharing its user properties.
    if (items.length === 0 && alike) return { key: `p${JSON.stringify(s.user_properties)}`, items, values, vector: alike, count: given.size, interactions };
    // Sessions sending the same ratings share a ranking; long sessions are ranked per request.
    return { key: items.length <= SESSION_KEY_MAX ? `s${items.join(',')}:${values.join(',')}` : undefined, items, values, count: given.size, interactions };
  }

  // Factors folded in from the profile's ratings, steered towards the context items (the mean of
  // their unit factor rows, at the profile vector's length); popular items with neither.
  private profileRanking(model: LoadedModel, p: Profile, context: number[]): { key: string | undefined; spec: RankSpec; warnings: string[]; context: number[] } {
    if (p.items.length === 0 && !p.vector && context.length === 0) return { key: 'pop', spec: POPULAR, warnings: [NO_RATINGS], context };
    const f = model.views.dims.factors;
    // Folded in once per profile (a cached profile keeps its vector).
    p.vector ??= this.foldedIn(model, p);
    const vector = context.length > 0 ? Float32Array.from(p.vector) : p.vector;
    if (context.length > 0) {
      let length = Math.hypot(...vector);
      if (length === 0) length = 1;
      const V = model.views.itemFactors;
      for (const c of context) {
        const n = model.itemNorms[c]!;
        if (n === 0) continue;
        for (let a = 0; a < f; a++) vector[a]! += (length * V[c * f + a]!) / (n * context.length);
      }
    }
    const key = p.key === undefined || context.length > 0 ? undefined : p.key;
    return { key, spec: { kind: 'vector', vector }, warnings: [], context };
  }

  // A profile's factors; sessions sending the same ratings share them (a fold-in solves an f × f system).
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

  private excluded(q: Want, p: Profile, context: number[]): Set<number> | undefined {
    if (context.length === 0 && !q.excludeRated) return undefined;
    if (context.length === 0) return (p.rated ??= new Set(p.items)); // kept with a cached profile
    return new Set([...context, ...(q.excludeRated ? p.items : [])]);
  }

  // Context items as model rows: IDs or {item_id} objects; unknown → ITEM_NOT_FOUND, known but newer than the model → ignored.
  private async contextRows(auth: Claims, db: string, model: LoadedModel, context: unknown[] | undefined): Promise<number[]> {
    const out: number[] = [];
    for (const [k, raw] of (context ?? []).entries()) {
      const id = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>).item_id : raw;
      if (id === undefined) throw wrongData('WRONG_DATA_TYPE', `context_items[${k}] must be an item id or an object with item_id`, { field: `context_items[${k}]` });
      const item = parseId(auth, 'item', id, false);
      const idx = model.itemIndex.get(item.key);
      if (idx !== undefined) out.push(idx);
      else if ((await this.entities.indexOf(db, 'item', item.key)) === undefined) throw notFound('ITEM_NOT_FOUND', 'item', item.value);
    }
    return out;
  }

  // Property values scored by the items holding them among the best ranked: an item at rank r adds
  // 1 / log2(2 + r) to each of its values (as a discounted gain would).
  private async rankValues(db: string, model: LoadedModel, ranked: { spec: RankSpec; warnings: string[] }, property: string, q: Want) {
    const cat = this.catalogues.get(db);
    const defs = (await cat.definitions('item')) ?? new Map<string, PropertyDef>();
    const def = defs.get(property.toLowerCase());
    if (!def) throw notFound('ITEM_PROPERTY_NOT_FOUND', 'property', property);
    const shape = await this.shape(db, q);
    const view = await cat.view('item');
    const r = this.inline(model, ranked.spec, VALUE_DEPTH) ? rank(model, ranked.spec, VALUE_DEPTH) : await this.scoring.rank(model, ranked.spec, VALUE_DEPTH);
    const score = new Map<string, { value: unknown; score: number }>();
    let position = 0;
    for (const i of r.items) {
      if (shape.keep && !shape.keep(i)) continue;
      const v = view.at(i).get(def.seq);
      const gain = 1 / Math.log2(2 + position++);
      for (const one of v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]) {
        const k = typeof one === 'string' ? `s${one}` : `n${String(one)}`;
        const was = score.get(k);
        if (was) was.score += gain;
        else score.set(k, { value: one, score: gain });
      }
    }
    const best = [...score.values()].sort((a, b) => b.score - a.score || String(a.value).localeCompare(String(b.value)));
    return { properties: best.slice(0, q.amt).map((e) => e.value), warnings: withAll(q.warnings, ranked.warnings), ...(q.explain ? { evaluated_scenarios: q.evaluated } : {}) };
  }

  private sessionRatings(auth: Claims, rows: unknown[]): Map<string, number> {
    const out = new Map<string, number>();
    rows.forEach((row, k) => {
      const at = `ratings[${k}]`;
      if (typeof row !== 'object' || row === null || Array.isArray(row)) throw wrongData('WRONG_DATA_TYPE', `${at} is not an object`, { field: at });
      const r = row as Record<string, unknown>;
      const item = parseId(auth, 'item', r.item_id, false);
      if (typeof r.rating !== 'number' || !(r.rating >= 1 && r.rating <= 10)) throw wrongData('WRONG_DATA_TYPE', `${at}.rating must be a number from 1 to 10`, { field: `${at}.rating` });
      out.set(item.key, r.rating);
    });
    return out;
  }

  private sessionInteractions(auth: Claims, rows: unknown[]): { item: string; type: string }[] {
    return rows.map((row, k) => {
      const at = `interactions[${k}]`;
      if (typeof row !== 'object' || row === null || Array.isArray(row)) throw wrongData('WRONG_DATA_TYPE', `${at} is not an object`, { field: at });
      const r = row as Record<string, unknown>;
      if (typeof r.interaction_type !== 'string' || r.interaction_type === '') throw wrongData('WRONG_DATA_TYPE', `${at}.interaction_type must be a string`, { field: `${at}.interaction_type` });
      return { item: parseId(auth, 'item', r.item_id, false).key, type: r.interaction_type };
    });
  }

  // Each item's inferred rating by the rules (the higher one wins unless the rule replaces).
  private async interactionRatings(db: string, parsed: { item: string; type: string }[]): Promise<Map<string, number>> {
    const rules = await this.rules.resolve(db, parsed.map((p) => p.type));
    const out = new Map<string, number>();
    for (const p of parsed) {
      const rule = rules.get(p.type.toLowerCase())!;
      const was = out.get(p.item);
      out.set(p.item, was === undefined || rule.combine === 'replace' ? rule.rating : Math.max(was, rule.rating));
    }
    return out;
  }

  // The mean factors of the trained users holding every given user property value (each value of
  // a list counts as a match); undefined when no property is given or no trained user matches.
  private async usersAlike(db: string, model: LoadedModel, props: Record<string, unknown> | undefined): Promise<Float32Array | undefined> {
    if (props === undefined || Object.keys(props).length === 0) return undefined;
    const cat = this.catalogues.get(db);
    const defs = await cat.definitions('user');
    const wanted = wantedValues(props, defs ?? new Map(), 'USER_PROPERTY_NOT_FOUND');
    const view = await cat.view('user');
    const { users, factors: f } = model.views.dims;
    const U = model.views.userFactors;
    const out = new Float32Array(f);
    let matched = 0;
    for (let u = 0; u < Math.min(users, view.size); u++) {
      const at = view.at(u);
      if (!wanted.every((w) => holds(at, w))) continue;
      const row = U.subarray(u * f, (u + 1) * f);
      if (!row.some((x) => x !== 0)) continue;
      matched++;
      for (let a = 0; a < f; a++) out[a]! += row[a]!;
    }
    if (matched === 0) return undefined;
    for (let a = 0; a < f; a++) out[a]! /= matched;
    return out;
  }

  private async model(db: string): Promise<LoadedModel> {
    const model = await this.registry.current(db);
    if (!model) throw unavailable('DATABASE_NOT_READY', 'no model is trained for this database yet: it trains once it holds 500 ratings');
    return model;
  }

  // Filters and reranking against the item view, when definitions and the view are at hand.
  private shapeNow(db: string, q: Want): Shape | typeof NOT_WARM {
    if (!q.filters.length && !q.reranking.length) return {};
    const cat = this.catalogues.get(db);
    const defs = cat.cachedDefinitions('item');
    const view = cat.readyView('item');
    if (!defs || !view) return NOT_WARM;
    return this.shapeOf(q, defs, view, db);
  }

  private async shape(db: string, q: Want): Promise<Shape> {
    if (!q.filters.length && !q.reranking.length) return {};
    const cat = this.catalogues.get(db);
    const defs = (await cat.definitions('item')) ?? new Map();
    return this.shapeOf(q, defs, await cat.view('item'), db);
  }

  private shapeOf(q: Want, defs: ReadonlyMap<string, PropertyDef>, view: CatalogueView, db: string): Shape {
    const shape: Shape = {};
    if (q.filters.length) shape.keep = keeper(q.filters, defs, view, this.masks, db);
    if (q.reranking.length) {
      let held = this.rerankings.get(q.reranking);
      if (!held || held.defs !== defs) this.rerankings.set(q.reranking, (held = { defs, rules: compileReranking(q.reranking, defs) }));
      shape.rules = held.rules;
      shape.valueOf = (i, seq) => view.at(i).get(seq);
      shape.key = `${listKey(q.filters)} ${listKey(q.reranking)} ${view.version}`;
    }
    return shape;
  }

  // One page of a ranking: `amt` items that pass, from the cursor's position. Without reranking
  // the cursor holds a position in the ranking, with it a position in the diversified order of
  // the passing items (which is deterministic); either way with the model it belongs to, so pages
  // never repeat an item.
  private page(
    auth: Claims,
    model: LoadedModel,
    key: string | undefined,
    spec: RankSpec,
    q: Want,
    shape: Shape,
    exclude: Set<number> | undefined,
    warnings: string[],
  ): RecoAnswer | Promise<RecoAnswer> {
    const job: PageJob = { auth, model, key, spec, q, shape, exclude, warnings };
    try {
      return this.pageWith(job, undefined);
    } catch (err) {
      if (!(err instanceof NeedDeeper)) throw err;
      return this.pageFromPool(job, err.depth);
    }
  }

  private async pageFromPool(job: PageJob, depth: number): Promise<RecoAnswer> {
    for (;;) {
      const deeper = await this.scoring.rank(job.model, job.spec, depth);
      try {
        return this.pageWith(job, deeper);
      } catch (err) {
        if (!(err instanceof NeedDeeper)) throw err;
        depth = err.depth;
      }
    }
  }

  // Ranking positions that pass an exclusion set, per ranking; kept as long as the set is.
  private passMemo(exclude: Set<number>, rankingKey: string): { positions: number[]; scanned: number } {
    let byRanking = this.passing.get(exclude);
    if (!byRanking) this.passing.set(exclude, (byRanking = new Map()));
    let memo = byRanking.get(rankingKey);
    if (!memo) byRanking.set(rankingKey, (memo = { positions: [], scanned: 0 }));
    return memo;
  }

  private inline(model: LoadedModel, spec: RankSpec, depth: number): boolean {
    return spec.kind === 'popular' || rankWork(model, spec, depth) <= this.inlineWork;
  }

  // deeper: a ranking the scoring pool made, for catalogues too large to rank here.
  private pageWith({ auth, model, key, spec, q, shape, exclude, warnings }: PageJob, deeper: Ranking | undefined): RecoAnswer {
    const rankTo = (depth: number): Ranking => {
      if (deeper && (deeper.complete || deeper.items.length >= depth)) return deeper;
      if (this.inline(model, spec, depth)) return rank(model, spec, depth);
      throw new NeedDeeper(depth);
    };
    const stamp = Math.round(model.meta.timestamp * 1000);
    const tag = shape.rules ? 'd1' : 'r1';
    let pos = 0;
    if (q.cursor) {
      const [at, of] = decodeCursor(tag, q.cursor, 2, Number.MAX_SAFE_INTEGER);
      if (of !== stamp) throw wrongData('WRONG_PARAMETER', 'this cursor belongs to an earlier model: start again without it', { field: 'cursor' });
      pos = at!;
    }
    const cacheKey = key === undefined ? undefined : `${model.id} ${key}`;
    let r = cacheKey === undefined ? undefined : this.rankings.get(cacheKey);
    const passes = (i: number) => !exclude?.has(i) && (!shape.keep || shape.keep(i));
    // Is ranking position `at` held (deepening the ranking when it can go further)?
    const reach = (at: number, want: number): boolean => {
      while (!r || (at >= r.items.length && !r.complete)) {
        r = rankTo(Math.max(FIRST_DEPTH, (r?.items.length ?? 0) * 4, at + 2 * want));
        if (cacheKey !== undefined) this.rankings.set(cacheKey, r);
      }
      return at < r.items.length;
    };
    // A user's rated items often fill the top of their ranking: with exclusion alone, the positions
    // that pass are kept with the (cached) exclusion set, so later requests do not skip them again.
    const memo = exclude && !shape.keep && cacheKey !== undefined ? this.passMemo(exclude, cacheKey) : undefined;
    // The passing items from ranking position `from` on, `want` of them at most; deepens the ranking as needed.
    const walk = (from: number, want: number) => {
      const out: number[] = [];
      let at = from;
      if (memo) {
        let k = lowerBound(memo.positions, from);
        while (out.length < want) {
          if (k < memo.positions.length) {
            at = memo.positions[k++]!;
            if (at < from) continue; // scanned just now, before the cursor
            if (!reach(at, want)) break; // the ranking was dropped from the cache: computed again, the same
            out.push(r!.items[at++]!);
            continue;
          }
          if (!reach(memo.scanned, want)) break;
          if (passes(r!.items[memo.scanned]!)) memo.positions.push(memo.scanned);
          memo.scanned++;
        }
        if (out.length < want) at = Math.max(at, memo.scanned, from);
      } else {
        while (out.length < want && reach(at, want)) {
          const i = r!.items[at++]!;
          if (passes(i)) out.push(i);
        }
      }
      reach(at, want);
      return { items: out, next: at, exhausted: r!.complete && at >= r!.items.length };
    };
    let items: number[];
    let next: number;
    let more: boolean;
    if (!shape.rules) {
      const w = walk(pos, q.amt);
      items = w.items;
      next = w.next;
      more = items.length === q.amt && !w.exhausted;
    } else {
      // Without exclusions (which are per user) the order is kept with the ranking and the shape.
      const orderKey = cacheKey !== undefined && !exclude && shape.key !== undefined ? `${cacheKey} ${shape.key}` : undefined;
      let d = orderKey === undefined ? undefined : this.diversified.get(orderKey);
      if (!d || (d.order.length < pos + q.amt && !(d.exhausted && d.order.length === d.candidates))) {
        const window = DIVERSITY_WINDOW;
        const w = walk(0, pos + q.amt + window);
        d = { order: diversify(w.items, shape.rules, shape.valueOf!, pos + q.amt, window), candidates: w.items.length, exhausted: w.exhausted };
        if (orderKey !== undefined) this.diversified.set(orderKey, d);
      }
      items = d.order.slice(pos, pos + q.amt);
      next = pos + items.length;
      more = items.length === q.amt && (d.candidates > next || !d.exhausted);
    }
    return {
      items_id: items.map((i) => shownId(auth, 'item', model.itemIds[i]!)),
      next_cursor: more ? encodeCursor(tag, [next, stamp]) : '',
      warnings,
      ...(q.explain ? { evaluated_scenarios: q.evaluated } : {}),
    };
  }
}

// Property values asked for, by storage sequence (a list value: any of its elements).
interface Wanted {
  seq: number;
  keys: Set<string>;
}

function wantedValues(values: Record<string, unknown>, defs: ReadonlyMap<string, PropertyDef>, missing: 'ITEM_PROPERTY_NOT_FOUND' | 'USER_PROPERTY_NOT_FOUND'): Wanted[] {
  return Object.entries(values).map(([name, v]) => {
    const def = defs.get(name.toLowerCase());
    if (!def) throw notFound(missing, 'property', name);
    return { seq: def.seq, keys: new Set((Array.isArray(v) ? v : [v]).map(String)) };
  });
}

// Whether an entity's value (or one element of its list) is among the wanted ones.
function holds(values: ReadonlyMap<number, unknown>, w: Wanted): boolean {
  return [values.get(w.seq)].flat().some((x) => x !== undefined && x !== null && w.keys.has(String(x)));
}

// The first index of a sorted list whose value is at least v.
function lowerBound(sorted: number[], v: number): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// A filter set's verdict per item row, kept per catalogue version: each item is tested at most once
// per version, lazily (only the candidates a ranking reaches), so no request scans the catalogue.
interface FilterMask {
  view: CatalogueView;
  defs: ReadonlyMap<string, PropertyDef>;
  version: number;
  test: (values: ReadonlyMap<number, unknown>) => boolean;
  verdict: Uint8Array; // 0 untested, 1 passes, 2 fails
}

// A rule list's text, once per list (a scenario's list is the same object every request).
const listKeys = new WeakMap<object, string>();
function listKey(list: object): string {
  let key = listKeys.get(list);
  if (key === undefined) listKeys.set(list, (key = JSON.stringify(list)));
  return key;
}

function keeper(filters: Want['filters'], defs: ReadonlyMap<string, PropertyDef>, view: CatalogueView, masks: LRUCache<string, FilterMask>, db: string): (i: number) => boolean {
  const key = `${db} ${listKey(filters)}`;
  let m = masks.get(key);
  if (!m || m.view !== view || m.defs !== defs || m.version !== view.version) {
    m = { view, defs, version: view.version, test: compileFilters(filters, defs, RECO_OPS), verdict: new Uint8Array(view.size) };
    masks.set(key, m);
  }
  const mask = m;
  return (i) => {
    if (i >= mask.verdict.length) return mask.test(view.at(i));
    let v = mask.verdict[i]!;
    if (v === 0) mask.verdict[i] = v = mask.test(view.at(i)) ? 1 : 2;
    return v === 1;
  };
}

// The request's cursor and explain flag with its plan.
function want(q: RecoQuery, plan: Plan): Want {
  return { ...plan, amt: plan.amt ?? DEFAULT_AMT, cursor: q.cursor, explain: q.explain };
}

// Warnings of several sources, sharing the first list when the others are empty.
function withAll(...lists: string[][]): string[] {
  const nonEmpty = lists.filter((l) => l.length > 0);
  return nonEmpty.length <= 1 ? (nonEmpty[0] ?? []) : nonEmpty.flat();
}
