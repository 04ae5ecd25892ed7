// Piscina worker tasks that score a published model (pool.run(data, { name })). The model arrives
// as its SharedArrayBuffer: posting one shares the memory, so no task copies a model.
import { modelViews } from '../model/layout.js';
import { rank, scorable, type RankSpec, type Ranking, type Scorable } from './rankings.js';

export interface RankInput {
  model: SharedArrayBuffer;
  listRows: SharedArrayBuffer; // the serving process's (rankings.ts Scorable)
  modelId: string; // names the buffer across tasks, so its item norms are computed once per worker
  spec: RankSpec;
  depth: number;
}

// Item norms per model id (computed once per worker); the views are made anew from each task's buffer.
const held = new Map<string, Pick<Scorable, 'itemNorms' | 'listRows'>>();
const HELD = 8;

// A ranking of a served model, off the event loop (engine/scoring/rankings.ts).
export function rankItems({ model, listRows, modelId, spec, depth }: RankInput): Ranking {
  const views = modelViews(model);
  let kept = held.get(modelId);
  if (!kept) {
    kept = scorable(views, new Float32Array(listRows));
    if (held.size >= HELD) held.delete(held.keys().next().value!);
    held.set(modelId, kept);
  }
  const r = rank({ views, itemNorms: kept.itemNorms, listRows: kept.listRows }, spec, depth);
  return { items: r.items.slice(), scores: r.scores.slice(), complete: r.complete };
}
