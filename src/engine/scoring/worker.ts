// Piscina worker tasks that score a published model (pool.run(data, { name })). The model arrives
// as its SharedArrayBuffer: posting one shares the memory, so no task copies a model.
import { modelViews } from '../model/layout.js';
import type { ScoreRows, SharedRows } from '../../../native-free-kernels/score-rows.js';
import { rank, scorable, type RankSpec, type Ranking } from './rankings.js';

export interface RankInput {
  model: SharedArrayBuffer;
  rows: SharedRows; // the serving process's (rankings.ts Scorable)
  modelId: string; // names the buffer across tasks, so a worker attaches to its rows once
  spec: RankSpec;
  depth: number;
}

// Rows per model id (attached once per worker); the views are made anew from each task's buffer.
// Few: holding rows keeps their memory (a copy of the item factors) alive after the model is
// replaced, and attaching again costs far less than a ranking.
const held = new Map<string, ScoreRows>();
const HELD = 2;

// A ranking of a served model, off the event loop (engine/scoring/rankings.ts).
export function rankItems({ model, rows, modelId, spec, depth }: RankInput): Ranking {
  const views = modelViews(model);
  let kept = held.get(modelId);
  if (!kept) {
    kept = scorable(views, rows).rows;
    if (held.size >= HELD) held.delete(held.keys().next().value!);
    held.set(modelId, kept);
  }
  const r = rank({ views, rows: kept }, spec, depth);
  return { items: r.items.slice(), scores: r.scores.slice(), complete: r.complete };
}
