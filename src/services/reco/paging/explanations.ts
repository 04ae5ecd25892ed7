// Why each item of a page is there (explain=true): where it came from, its score, up to three of the
// user's or session's items that led to it most, and the business rules that moved it. Made only when
// asked, from what the page already holds: its ranking's spec and precomputed head, the profile the
// flow read, the order before reranking and rotation.
import type { Claims } from '../../../contract/claims.js';
import type { LoadedModel } from '../../../engine/model/registry.js';
import { itemLikeness, itemScore } from '../../../engine/scoring/item-scores.js';
import type { RankSpec } from '../../../engine/scoring/rankings.js';
import type { IdValue } from '../../ids/id-types.js';
import { shownId } from '../../ids/request-ids.js';
import type { Because, Explanation, Want } from '../request/request.js';
import type { Source } from '../../../contract/sources.js';

export type { Because, Explanation, Source };

// What the pager knows of a page.
export interface PageFacts {
  auth: Claims;
  model: LoadedModel;
  spec: RankSpec;
  source?: Source; // the flow's word for the ranking, else told by its spec
  because?: Because;
  head: Uint32Array | undefined; // the precomputed list the ranking starts with
  q: Want;
  items: number[]; // the page's rows
  from: number; // the first one's place (0-based)
  before: number[] | undefined; // the passing rows in ranking order, when reranking or rotation reordered them
  pushed: Set<number> | undefined; // rows rotation pushed down
}

const BECAUSE_MAX = 3;
// The profile items weighed for `because`, at most (the first ones, as the profile lists them).
const PROFILE_READ = 500;

export function explanations(f: PageFacts): Explanation[] {
  const { model } = f;
  const v = model.views;
  const place = f.before && new Map(f.before.map((row, p) => [row, p]));
  return f.items.map((row, k) => {
    const rules: string[] = [];
    if (f.q.filters.length > 0) rules.push(`filters: passed all ${f.q.filters.length}`);
    const was = place?.get(row);
    const at = f.from + k;
    if (f.pushed?.has(row)) rules.push(`rotation: shown to the user before, pushed down from ${(was ?? at) + 1} to ${at + 1}`);
    else if (was !== undefined && was !== at)
      rules.push(`${f.q.reranking.length > 0 ? 'reranking' : 'rotation of others'}: from ${was + 1} to ${at + 1}`);
    const cold = v.itemCounts[row] === 0;
    if (cold) rules.push('no feedback at training: placed by factors from its properties');
    return {
      item_id: shownId(f.auth, 'item', model.itemIds[row]!),
      source: cold ? 'cold_start' : sourceOf(f, row),
      score: itemScore(v, f.spec, row),
      because: becauseOf(f, row),
      rules,
    };
  });
}

function sourceOf(f: PageFacts, row: number): Source {
  switch (f.spec.kind) {
    case 'similar':
      return 'item_neighbours';
    case 'listed':
      return f.head?.includes(row) ? 'user_list' : 'user_factors';
    case 'session':
      return 'session';
    case 'group':
      return 'group';
    case 'popular':
      return 'popularity';
    default:
      return f.source ?? 'fold_in';
  }
}

// The profile's items that point to this one most: value × cosine of their factors, the best three
// above 0; the query item for an item's neighbours.
function becauseOf(f: PageFacts, row: number): IdValue[] {
  const { model } = f;
  if (f.spec.kind === 'similar') return [shownId(f.auth, 'item', model.itemIds[f.spec.item]!)];
  const b = f.because;
  if (b === undefined) return [];
  const weighed: [number, number][] = [];
  const n = Math.min(b.rows.length, PROFILE_READ);
  for (let j = 0; j < n; j++) {
    const other = b.rows[j]!;
    if (other === row) continue;
    const w = (b.values[j] ?? 1) * itemLikeness(model.views, other, row);
    if (w > 0) weighed.push([w, other]);
  }
  weighed.sort((x, y) => y[0] - x[0]);
  return weighed.slice(0, BECAUSE_MAX).map(([, other]) => shownId(f.auth, 'item', model.itemIds[other]!));
}
