// Piscina worker tasks that score a published model (pool.run(data, { name })). The model arrives
// as its SharedArrayBuffer: posting one shares the memory, so no task copies a model.
import { topKTo } from '../../../native-free-kernels/top-k.js';
import { modelViews } from '../layout.js';
import { rank, rowNorms, type RankSpec, type Ranking } from '../rankings.js';

export interface TopItemsInput {
  model: SharedArrayBuffer;
  user: number; // row of the user factors
  k: number;
  mask?: Uint8Array; // items allowed (1), by dense index; absent: every item
}

export interface TopItems {
  items: Uint32Array;
  scores: Float32Array;
}

// The k items of highest score x_user · y_item among those the mask allows.
export function topItems({ model, user, k, mask }: TopItemsInput): TopItems {
  const v = modelViews(model);
  const { users, items, factors: f } = v.dims;
  if (!Number.isInteger(user) || user < 0 || user >= users) throw new Error(`user row ${user} outside [0, ${users})`);
  const scores = new Float32Array(items);
  const x = user * f;
  for (let i = 0; i < items; i++) {
    const y = i * f;
    let s = 0;
    for (let a = 0; a < f; a++) s += v.userFactors[x + a]! * v.itemFactors[y + a]!;
    scores[i] = s;
  }
  const out = { items: new Uint32Array(k), scores: new Float32Array(k) };
  const got = topKTo(out.items, out.scores, scores, items, k, mask);
  return { items: out.items.slice(0, got), scores: out.scores.slice(0, got) };
}

export interface RankInput {
  model: SharedArrayBuffer;
  modelId: string; // names the buffer across tasks, so its item norms are computed once per worker
  spec: RankSpec;
  depth: number;
}

const norms = new Map<string, Float32Array>();
const HELD_NORMS = 8;

// A ranking of a served model, off the event loop (engine/rankings.ts).
export function rankItems({ model, modelId, spec, depth }: RankInput): Ranking {
  const views = modelViews(model);
  let itemNorms = norms.get(modelId);
  if (!itemNorms) {
    itemNorms = rowNorms(views.itemFactors, views.dims.items, views.dims.factors);
    if (norms.size >= HELD_NORMS) norms.delete(norms.keys().next().value!);
    norms.set(modelId, itemNorms);
  }
  const r = rank({ views, itemNorms }, spec, depth);
  return { items: r.items.slice(), scores: r.scores.slice(), complete: r.complete };
}
