// The worker pool (worker-pool.ts) that scores models for requests too large to score on the event loop. Tasks
// carry the model's SharedArrayBuffer (from registry.ts) and its score rows' shared memory, which
// workers read in place.
import { WorkerPool } from '../worker-pool.js';
import type { LoadedModel } from '../model/registry.js';
import type { Ranking, RankSpec } from './rankings.js';

// How requests' rankings were made, counted by the Scorer (scorer.ts) as plain increments; the
// metrics read them when scraped.
export interface ScoringPaths {
  precomputed: number; // served from a list made at training
  cached: number; // a ranking an earlier request made
  inline: number; // scored on the event loop
  pool: number; // scored in this pool
}

export class ScoringPool {
  private readonly pool: WorkerPool;
  readonly paths: ScoringPaths = { precomputed: 0, cached: 0, inline: 0, pool: 0 };

  constructor(threads: number) {
    this.pool = new WorkerPool('scoring', new URL('./worker.js', import.meta.url), threads, 60_000);
  }

  rank(model: LoadedModel, spec: RankSpec, depth: number): Promise<Ranking> {
    this.paths.pool++;
    return this.pool.run({ model: model.buffer, rows: model.rows.shared, modelId: model.id, spec, depth }, 'rankItems');
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
