// Piscina worker tasks that score a published model (pool.run(data, { name })). The model arrives
// as its SharedArrayBuffer: posting one shares the memory, so no task copies a model.
import { modelViews } from '../layout.js';
import { rank, rowNorms, type RankSpec, type Ranking } from '../rankings.js';

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
