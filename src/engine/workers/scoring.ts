// Piscina worker tasks that score a published model (pool.run(data, { name })). The model arrives
// as its SharedArrayBuffer: posting one shares the memory, so no task copies a model.
import { topKTo } from '../../../native-free-kernels/top-k.js';
import { modelViews } from '../layout.js';

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
