// GET recommendation/items/<item_id>/items/: items most similar to the item, never the item itself.
// Answers in the same tick when the model holds the item and the plan and shape are at hand.
import type { Claims } from '../../contract/claims.js';
import { notFound } from '../../errors/api-error.js';
import { parseId } from '../ids/request-ids.js';
import { interacted } from './exclusions.js';
import { then, type Maybe } from './maybe.js';
import type { Subject } from './planner.js';
import type { RecoParts } from './reco-parts.js';
import { POPULAR, requestUser, want, type RecoAnswer, type RecoQuery } from './request.js';
import { servedModel } from './served-model.js';

export function itemToItems(p: RecoParts, auth: Claims, db: string, rawItem: string, q: RecoQuery): Maybe<RecoAnswer> {
  const item = parseId(auth, 'item', rawItem, false);
  const user = requestUser(auth, q);
  return then(servedModel(p.registry, db), (model) => {
    const row = model.itemIndex.get(item.key); // undefined: unknown, or newer than the model
    return then(row ?? p.entities.indexOf(db, 'item', item.key), (idx) => {
      const who: Subject = { user, item: idx };
      return then(p.planner.plan(db, 'item_to_items', q, who), (plan) => {
        const w = want(q, plan);
        return then(p.shaper.shape(db, w), (shape) => {
          if (idx === undefined) throw notFound('ITEM_NOT_FOUND', 'item', item.value); // after the shape: a bad filter is named even for an unknown item
          return then(interacted(p.planner, db, model, w, who, undefined), (exclude) => {
            if (row !== undefined) return p.pager.page({ auth, model, key: `i${idx}`, spec: { kind: 'similar', item: idx }, q: w, shape, exclude, warnings: w.warnings });
            const warning = `item ${JSON.stringify(item.value)} is newer than the model: most popular items until a training covers it`;
            return p.pager.page({ auth, model, key: 'pop', spec: POPULAR, q: w, shape, exclude, warnings: [...w.warnings, warning] });
          });
        });
      });
    });
  });
}
