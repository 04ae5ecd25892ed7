// What an anonymous session sends, as a profile: its ratings, or its interactions through the
// database's interaction rules, and for a session with nothing rated the users sharing its user
// properties (cold start). Nothing is stored.
import { wrongData } from '../../../errors/api-error.js';
import type { LoadedModel } from '../../../engine/model/registry.js';
import { meanUserFactors } from '../../../engine/scoring/directions.js';
import type { Claims } from '../../../contract/claims.js';
import type { Catalogues } from '../../catalogue/catalogues.js';
import type { InteractionRuleService } from '../../feedback/interaction-rules.js';
import type { Profile } from '../../feedback/profile-cache.js';
import { parseId } from '../../ids/request-ids.js';
import type { Subject } from './planner.js';
import { requestUser, type RecoQuery, type SessionInput } from './request.js';
import { holds, wantedValues } from './wanted-values.js';
import type { Maybe } from '../maybe.js';
import { SeenBefore } from './seen-before.js';

// Sessions with up to this many rated items get their ranking cached by content, from the second
// time the same ratings are sent (a session's next page, a client asking again): random sessions,
// each sent once, would only churn the caches.
const SESSION_KEY_MAX = 64;

export class SessionInputs {
  constructor(
    private readonly catalogues: Catalogues,
    private readonly rules: InteractionRuleService,
  ) {}

  private readonly seen = new SeenBefore();

  // At once (no promise) for a session of ratings without user properties, the usual kind: a
  // promise per request cost a microtask hop and its allocations on every random session.
  profile(auth: Claims, db: string, model: LoadedModel, s: SessionInput): Maybe<Profile> {
    if (s.ratings !== undefined && s.interactions !== undefined) {
      throw wrongData('WRONG_PARAMETER', 'send either ratings or interactions, not both', { field: 'interactions' });
    }
    const alike = this.usersAlike(db, model, s.user_properties);
    return alike instanceof Promise ? alike.then((a) => this.withAlike(auth, db, model, s, a)) : this.withAlike(auth, db, model, s, alike);
  }

  private withAlike(auth: Claims, db: string, model: LoadedModel, s: SessionInput, alike: Float32Array | undefined): Maybe<Profile> {
    if (s.interactions === undefined) return profileWith(s, ratedRows(auth, model, s.ratings ?? []), alike, undefined, this.seen);
    const interactions = sessionInteractions(auth, s.interactions);
    return this.interactionRows(db, model, interactions).then((rows) => profileWith(s, rows, alike, interactions, this.seen));
  }

  // The profile when it needs nothing read: a session of ratings without user properties (the usual
  // kind); undefined otherwise (`profile` reads what it needs).
  profileNow(auth: Claims, model: LoadedModel, s: SessionInput): Profile | undefined {
    if (s.interactions !== undefined || (s.user_properties !== undefined && Object.keys(s.user_properties).length > 0)) return undefined;
    return profileWith(s, ratedRows(auth, model, s.ratings ?? []), undefined, undefined, this.seen);
  }

  subject(auth: Claims, q: RecoQuery, s: SessionInput, profile: Profile): Subject {
    return new SessionSubject(requestUser(auth, q), s.user_properties, profile);
  }

  // Each item's inferred rating by the rules (the higher one wins unless the rule replaces).
  private async interactionRows(db: string, model: LoadedModel, parsed: { item: string; type: string }[]): Promise<SessionRows> {
    const rules = await this.rules.resolve(
      db,
      parsed.map((p) => p.type),
    );
    const rows = new SessionRows(model);
    for (const p of parsed) {
      const rule = rules.get(p.type.toLowerCase())!;
      rows.add(p.item, rule.rating, rule.combine === 'replace');
    }
    return rows;
  }

  // The mean factors of the trained users holding every given user property value (each value of
  // a list counts as a match); undefined when no property is given or no trained user matches.
  private usersAlike(db: string, model: LoadedModel, props: Record<string, unknown> | undefined): Maybe<Float32Array | undefined> {
    if (props === undefined || Object.keys(props).length === 0) return undefined;
    return this.usersHolding(db, model, props);
  }

  private async usersHolding(db: string, model: LoadedModel, props: Record<string, unknown>): Promise<Float32Array | undefined> {
    const cat = this.catalogues.get(db);
    const defs = await cat.definitions('user');
    const wanted = wantedValues(props, defs ?? new Map(), 'USER_PROPERTY_NOT_FOUND', 'user_properties');
    const view = await cat.view('user');
    const matching: number[] = [];
    for (let u = 0; u < Math.min(model.views.dims.users, view.size); u++) {
      const at = view.at(u);
      if (wanted.every((w) => holds(at, w))) matching.push(u);
    }
    return meanUserFactors(model, matching);
  }
}

// What scenarios ask about a session; a method rather than a closure per request.
class SessionSubject implements Subject {
  readonly interactions: { item: string; type: string }[] | undefined;

  constructor(
    readonly user: string | undefined,
    readonly properties: Record<string, unknown> | undefined,
    private readonly profile: Profile,
  ) {
    this.interactions = profile.interactions;
  }

  nRatings(): number {
    return this.profile.count;
  }
}

// Rows a session's items are searched in linearly for an item given twice; a Map past them.
const LINEAR_ROWS = 32;

// A session's items as model rows, one value each, in the order items first appear (what a Map of
// id → value gives, without one: a random session's ratings went through a Map of fresh id
// strings, hashed, then iterated as entry pairs, a measurable share of a random session's CPU). The model's row stands for the
// id (rows and canonical ids are one to one); ids the model lacks only count.
class SessionRows {
  readonly items: number[] = [];
  readonly values: number[] = [];
  private unknown: Set<string> | undefined;
  private at: Map<number, number> | undefined; // row → its index in items, once items outgrow a linear search

  constructor(private readonly model: LoadedModel) {}

  // Distinct items given, those the model lacks too.
  get count(): number {
    return this.items.length + (this.unknown?.size ?? 0);
  }

  // An item given again keeps its place: its value is replaced, or the higher one kept.
  add(key: string, value: number, replace: boolean): void {
    const i = this.model.itemIndex.get(key);
    if (i === undefined) {
      (this.unknown ??= new Set()).add(key);
      return;
    }
    const { items, values } = this;
    let j: number;
    if (this.at !== undefined) j = this.at.get(i) ?? -1;
    else {
      j = items.indexOf(i);
      if (items.length === LINEAR_ROWS) this.at = new Map(items.map((row, n) => [row, n]));
    }
    if (j >= 0) values[j] = replace ? value : Math.max(values[j]!, value);
    else {
      this.at?.set(i, items.length);
      items.push(i);
      values.push(value);
    }
  }
}

// A session's ratings: each item's last one.
function ratedRows(auth: Claims, model: LoadedModel, ratings: unknown[]): SessionRows {
  const rows = new SessionRows(model);
  for (let k = 0; k < ratings.length; k++) {
    const r = ratings[k];
    // The field's name is only made for an error.
    if (typeof r !== 'object' || r === null || Array.isArray(r))
      throw wrongData('WRONG_DATA_TYPE', `ratings[${k}] is not an object`, { field: `ratings[${k}]` });
    const { item_id, rating } = r as Record<string, unknown>;
    const key = parseId(auth, 'item', item_id, false).key;
    if (typeof rating !== 'number' || !(rating >= 1 && rating <= 10))
      throw wrongData('WRONG_DATA_TYPE', `ratings[${k}].rating must be a number from 1 to 10`, { field: `ratings[${k}].rating` });
    rows.add(key, rating, true);
  }
  return rows;
}

function profileWith(
  s: SessionInput,
  rows: SessionRows,
  alike: Float32Array | undefined,
  interactions: { item: string; type: string }[] | undefined,
  seen: SeenBefore,
): Profile {
  const { items, values, count } = rows;
  // Cold start: a session with nothing rated is ranked like the users sharing its user properties.
  if (items.length === 0 && alike)
    return { key: `p${JSON.stringify(s.user_properties)}`, items, values, vector: alike, count, interactions };
  // Sessions sending the same ratings again share a ranking; the others are ranked per request.
  const key = items.length <= SESSION_KEY_MAX && seen.check(items, values) ? `s${items.join(',')}:${values.join(',')}` : undefined;
  return { key, items, values, count, interactions };
}

function sessionInteractions(auth: Claims, rows: unknown[]): { item: string; type: string }[] {
  return rows.map((row, k) => {
    const at = `interactions[${k}]`;
    if (typeof row !== 'object' || row === null || Array.isArray(row))
      throw wrongData('WRONG_DATA_TYPE', `${at} is not an object`, { field: at });
    const r = row as Record<string, unknown>;
    if (typeof r.interaction_type !== 'string' || r.interaction_type === '')
      throw wrongData('WRONG_DATA_TYPE', `${at}.interaction_type must be a string`, { field: `${at}.interaction_type` });
    return { item: parseId(auth, 'item', r.item_id, false).key, type: r.interaction_type };
  });
}
