// GET recommendation/items/<item_id>/items/: items most similar to the item, never the item itself.
// Answers in the same tick when the model holds the item and the plan and shape are at hand.
import type { Claims } from '../../contract/claims.js';
import type { LoadedModel } from '../../engine/model/registry.js';
import { notFound } from '../../errors/api-error.js';
import { parseId, type Parsed } from '../ids/request-ids.js';
import { interacted } from './exclusions.js';
import { then, type Maybe } from './maybe.js';
import type { Plan } from '../scenarios/scenario-walk.js';
import type { Subject } from './planner.js';
import { RowKey } from './ranking-walk.js';
import type { RecoParts } from './reco-parts.js';
import { POPULAR, requestUser, want, type RecoAnswer, type RecoQuery, type Want } from './request.js';
import { servedModel } from './served-model.js';
import type { Shape } from './shaping.js';

export function itemToItems(p: RecoParts, auth: Claims, db: string, rawItem: string, q: RecoQuery): Maybe<RecoAnswer> {
  const r = new ItemRequest(p, auth, db, q, parseId(auth, 'item', rawItem, false), requestUser(auth, q));
  return then(servedModel(p.registry, db), withModel, r);
}

// A request and what its steps have found so far (each step fills in its part).
class ItemRequest {
  model!: LoadedModel;
  row: number | undefined; // the item's model row (undefined: unknown, or newer than the model)
  who!: Subject;
  w!: Want;
  shape!: Shape;

  constructor(
    readonly p: RecoParts,
    readonly auth: Claims,
    readonly db: string,
    readonly q: RecoQuery,
    readonly item: Parsed,
    readonly user: string | undefined,
  ) {}
}

function withModel(model: LoadedModel, r: ItemRequest): Maybe<RecoAnswer> {
  r.model = model;
  r.row = model.itemIndex.get(r.item.key);
  return then(r.row ?? r.p.entities.indexOf(r.db, 'item', r.item.key), withIndex, r);
}

function withIndex(idx: number | undefined, r: ItemRequest): Maybe<RecoAnswer> {
  r.who = { user: r.user, item: idx };
  return then(r.p.planner.plan(r.db, 'item_to_items', r.q, r.who), withPlan, r);
}

function withPlan(plan: Plan, r: ItemRequest): Maybe<RecoAnswer> {
  r.w = want(r.q, plan);
  return then(r.p.shaper.shape(r.db, r.w), withShape, r);
}

function withShape(shape: Shape, r: ItemRequest): Maybe<RecoAnswer> {
  // After the shape: a bad filter is named even for an unknown item.
  if (r.who.item === undefined) throw notFound('ITEM_NOT_FOUND', 'item', r.item.value);
  r.shape = shape;
  return then(interacted(r.p.planner, r.db, r.model, r.w, r.who, undefined), withExclusions, r);
}

function withExclusions(exclude: Set<number> | undefined, r: ItemRequest): Maybe<RecoAnswer> {
  const { auth, model, w, shape } = r;
  if (r.row !== undefined) return r.p.pager.page({ auth, model, key: new RowKey('i', r.row), spec: { kind: 'similar', item: r.row }, q: w, shape, exclude, warnings: w.warnings });
  const warning = `item ${JSON.stringify(r.item.value)} is newer than the model: most popular items until a training covers it`;
  return r.p.pager.page({ auth, model, key: 'pop', spec: POPULAR, q: w, shape, exclude, warnings: [...w.warnings, warning] });
}
