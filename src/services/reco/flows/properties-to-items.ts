// POST recommendation/items-properties/items/: items like those holding the given property values
// (the mean direction of every item that holds one of them). No reco type: scenarios do not apply.
import type { Claims } from '../../../contract/claims.js';
import { meanDirection } from '../../../engine/scoring/directions.js';
import type { PropertyDef } from '../../../store/properties-store.js';
import { merge } from '../../scenarios/scenario-walk.js';
import type { RecoParts } from '../reco-parts.js';
import { POPULAR, want, type RecoAnswer, type RecoQuery } from '../request/request.js';
import { servedModel } from '../request/served-model.js';
import { holds, wantedValues } from '../request/wanted-values.js';

export async function propertiesToItems(
  p: RecoParts,
  auth: Claims,
  db: string,
  values: Record<string, unknown>,
  rq: RecoQuery,
): Promise<RecoAnswer> {
  const q = want(rq, merge(rq, undefined, undefined));
  const model = await servedModel(p.registry, db);
  const shape = await p.shaper.shape(db, q);
  const cat = p.catalogues.get(db);
  const defs = (await cat.definitions('item')) ?? new Map<string, PropertyDef>();
  const view = await cat.view('item');
  const wanted = wantedValues(values, defs, 'ITEM_PROPERTY_NOT_FOUND', 'item_properties');
  const holders: number[] = [];
  for (let i = 0; i < model.views.dims.items; i++) {
    const at = view.at(i);
    if (wanted.some((w) => holds(at, w))) holders.push(i);
  }
  const page = { auth, model, q, shape, exclude: undefined, stopAt: undefined };
  if (holders.length === 0)
    return p.pager.page({ ...page, key: 'pop', spec: POPULAR, warnings: ['no item holds these property values: most popular items'] });
  return p.pager.page({
    ...page,
    key: undefined,
    spec: { kind: 'vector', vector: meanDirection(model, holders) },
    warnings: [],
    source: 'properties',
  });
}
