// GET recommendation/precomputed/{items,users}/<id>/items/: a precomputed table's row, cut to the
// plan's amt and passed through its filters and exclusions (the table comes from the request or
// its scenarios). Warm reads answer in the same tick.
import type { Claims } from '../../contract/claims.js';
import type { TableKind } from '../../store/tables-store.js';
import { parseId, pathOwner, type Parsed } from '../ids/request-ids.js';
import type { Plan } from '../scenarios/scenario-walk.js';
import { interacted } from './exclusions.js';
import { then, type Maybe } from './maybe.js';
import type { Subject } from './planner.js';
import type { PrecomputedAnswer } from './precomputed-tables.js';
import type { RecoParts } from './reco-parts.js';
import { requestUser, want, withAll, type RecoQuery } from './request.js';
import { servedModel } from './served-model.js';

export function precomputed(p: RecoParts, auth: Claims, db: string, kind: TableKind, rawId: string, q: RecoQuery): Maybe<PrecomputedAnswer> {
  const byItem = kind === 'item_to_items';
  const recoType = byItem ? 'precomputed_item_to_items' : 'precomputed_profile_to_items';
  const id = byItem ? parseId(auth, 'item', rawId, false) : pathOwner(auth, 'user', rawId, false);
  const user = byItem ? requestUser(auth, q) : id.key;
  const item = byItem ? (p.registry.held(db)?.itemIndex.get(id.key) ?? p.entities.indexOf(db, 'item', id.key)) : undefined;
  return then(item, (item) => {
    const who: Subject = { user, item };
    return then(p.planner.plan(db, recoType, q, who), (plan) =>
      // Tables are not reranked (the answer says so when the plan asks for it).
      then(p.shaper.shape(db, { ...want(q, plan), reranking: [] }), (shape) => {
        if (plan.excludeTypes.length === 0) return read(p, auth, db, kind, id, plan, shape.keep);
        return then(servedModel(p.registry, db), (model) =>
          then(interacted(p.planner, db, model, plan, who, undefined), (exclude) => {
            const keep = exclude ? (i: number) => !exclude.has(i) && (!shape.keep || shape.keep(i)) : shape.keep;
            return read(p, auth, db, kind, id, plan, keep);
          }),
        );
      }),
    );
  });
}

// A table row is answered whole unless a scenario sets amt.
function read(p: RecoParts, auth: Claims, db: string, kind: TableKind, id: Parsed, w: Plan, keep: ((item: number) => boolean) | undefined): Maybe<PrecomputedAnswer> {
  const row = kind === 'item_to_items' ? p.tables.forItem(auth, db, id, w.table, keep, w.amt) : p.tables.forUser(auth, db, id, w.table, keep, w.amt);
  return then(row, (a) => ({ ...a, warnings: withAll(w.warnings, a.warnings, w.reranking.length > 0 ? ['reranking does not apply to precomputed tables'] : []) }));
}
