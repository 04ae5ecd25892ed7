// GET recommendation/precomputed/{items,users}/<id>/items/: a precomputed table's row, cut to the
// plan's amt and passed through its filters and exclusions (the table comes from the request or
// its scenarios). One request, two paths (as user-to-items.ts): `now` answers a warm read in the
// same tick; `later` awaits what the rest need.
import { parseId, pathOwner, type Parsed } from '../../ids/request-ids.js';
import type { Plan } from '../../scenarios/scenario-walk.js';
import { pending, type Maybe } from '../maybe.js';
import type { PrecomputedAnswer } from '../paging/precomputed-tables.js';
import type { Shape } from '../paging/shaping.js';
import type { RecoParts } from '../reco-parts.js';
import { interacted } from '../request/exclusions.js';
import type { Subject } from '../request/planner.js';
import { requestUser, want, withAll, type TableRequest } from '../request/request.js';
import { servedModel } from '../request/served-model.js';

export function precomputed(p: RecoParts, r: TableRequest): Maybe<PrecomputedAnswer> {
  const byItem = r.table === 'item_to_items';
  const id = byItem ? parseId(r.auth, 'item', r.id, false) : pathOwner(r.auth, 'user', r.id, false);
  const user = byItem ? requestUser(r.auth, r.q) : id.key;
  return now(p, r, id, user) ?? later(p, r, id, user);
}

function now(p: RecoParts, r: TableRequest, id: Parsed, user: string | undefined): Maybe<PrecomputedAnswer> | undefined {
  const item = r.table === 'item_to_items' ? p.registry.held(r.db)?.itemIndex.get(id.key) : undefined;
  if (r.table === 'item_to_items' && item === undefined) return undefined;
  const plan = p.planner.planNow(r.db, r.recoType, r.q, { user, item });
  if (plan === undefined || plan.excludeTypes.length > 0) return undefined;
  const shape = p.shaper.shape(r.db, unranked(r, plan));
  if (pending(shape)) return undefined;
  return read(p, r, id, plan, shape.keep);
}

async function later(p: RecoParts, r: TableRequest, id: Parsed, user: string | undefined): Promise<PrecomputedAnswer> {
  const item =
    r.table === 'item_to_items'
      ? (p.registry.held(r.db)?.itemIndex.get(id.key) ?? (await p.entities.indexOf(r.db, 'item', id.key)))
      : undefined;
  const who: Subject = { user, item };
  const plan = await p.planner.plan(r.db, r.recoType, r.q, who);
  const shape = await p.shaper.shape(r.db, unranked(r, plan));
  if (plan.excludeTypes.length === 0) return read(p, r, id, plan, shape.keep);
  const model = await servedModel(p.registry, r.db);
  const exclude = await interacted(p.planner, r.db, model, plan, who, undefined);
  const keep = exclude ? (i: number) => !exclude.has(i) && (!shape.keep || shape.keep(i)) : shape.keep;
  return read(p, r, id, plan, keep);
}

// Tables are not reranked (the answer says so when the plan asks for it).
const unranked = (r: TableRequest, plan: Plan) => ({ ...want(r.q, plan), reranking: [] });

// A table row is answered whole unless a scenario sets amt.
function read(p: RecoParts, r: TableRequest, id: Parsed, w: Plan, keep: Shape['keep']): Maybe<PrecomputedAnswer> {
  const row =
    r.table === 'item_to_items'
      ? p.tables.forItem(r.auth, r.db, id, w.table, keep, w.amt)
      : p.tables.forUser(r.auth, r.db, id, w.table, keep, w.amt);
  const finish = (a: PrecomputedAnswer) => withWarnings(a, w, r.q.reasons === true);
  return row instanceof Promise ? row.then(finish) : finish(row);
}

// reasons: with explanations (explain=true): every item from the table's row, as it was computed.
function withWarnings(a: PrecomputedAnswer, w: Plan, reasons: boolean): PrecomputedAnswer {
  const rules = w.filters.length > 0 ? [`filters: passed all ${w.filters.length}`] : [];
  return {
    ...a,
    warnings: withAll(w.warnings, a.warnings, w.reranking.length > 0 ? ['reranking does not apply to precomputed tables'] : []),
    ...(reasons && {
      explanations: a.items_id.map((item_id) => ({ item_id, source: 'precomputed_table' as const, score: null, because: [], rules })),
    }),
  };
}
