// GET recommendation/items/<item_id>/items/: items most similar to the item, never the item itself.
// One request, two paths (as user-to-items.ts): `now` answers in the same tick when the model holds
// the item and the rules are at hand; `later` awaits what the rest need.
import type { LoadedModel } from '../../../engine/model/registry.js';
import { RowKey } from '../../../engine/scoring/scorer.js';
import { notFound } from '../../../errors/api-error.js';
import { parseId, type Parsed } from '../../ids/request-ids.js';
import type { Maybe } from '../maybe.js';
import type { PageJob } from '../paging/pager.js';
import type { RecoParts } from '../reco-parts.js';
import { interacted } from '../request/exclusions.js';
import { pageRules, rulesNow, type PageRules } from '../request/page-rules.js';
import { POPULAR, requestUser, type ItemRequest, type RecoAnswer } from '../request/request.js';
import { servedModel } from '../request/served-model.js';

export function itemToItems(p: RecoParts, r: ItemRequest): Maybe<RecoAnswer> {
  const item = parseId(r.auth, 'item', r.item, false);
  const user = requestUser(r.auth, r.q);
  return now(p, r, item, user) ?? later(p, r, item, user);
}

function now(p: RecoParts, r: ItemRequest, item: Parsed, user: string | undefined): Maybe<RecoAnswer> | undefined {
  const model = p.registry.held(r.db);
  if (model === undefined) return undefined;
  const row = model.itemIndex.get(item.key);
  if (row === undefined) return undefined;
  const rules = rulesNow(p, r.db, r.recoType, r.q, { user, item: row });
  if (rules === undefined) return undefined;
  return p.pager.page(similarJob(r, model, rules, row, undefined));
}

async function later(p: RecoParts, r: ItemRequest, item: Parsed, user: string | undefined): Promise<RecoAnswer> {
  const model = await servedModel(p.registry, r.db);
  // undefined: unknown, or newer than the model
  const row = model.itemIndex.get(item.key);
  const who = { user, item: row ?? (await p.entities.indexOf(r.db, 'item', item.key)) };
  const rules = await pageRules(p, r.db, r.recoType, r.q, who);
  // After the rules: a bad filter is named even for an unknown item.
  if (who.item === undefined) throw notFound('ITEM_NOT_FOUND', 'item', item.value);
  const exclude = await interacted(p.planner, r.db, model, rules.w, who, undefined);
  if (row !== undefined) return p.pager.page(similarJob(r, model, rules, row, exclude));
  const warning = `item ${JSON.stringify(item.value)} is newer than the model: most popular items until a training covers it`;
  return p.pager.page({
    auth: r.auth,
    model,
    key: 'pop',
    spec: POPULAR,
    q: rules.w,
    shape: rules.shape,
    exclude,
    warnings: [...rules.w.warnings, warning],
    stopAt: undefined,
  });
}

function similarJob(r: ItemRequest, model: LoadedModel, { w, shape }: PageRules, row: number, exclude: Set<number> | undefined): PageJob {
  return {
    auth: r.auth,
    model,
    key: new RowKey('i', row),
    spec: { kind: 'similar', item: row },
    q: w,
    shape,
    exclude,
    warnings: w.warnings,
    stopAt: undefined,
  };
}
