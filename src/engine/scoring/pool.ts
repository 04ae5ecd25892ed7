// The Piscina pool that scores models for requests too large to score on the event loop. Tasks
// carry the model's SharedArrayBuffer (from registry.ts) and its score rows' shared memory, which
// workers read in place.
import { Piscina } from 'piscina';
import type { LoadedModel } from '../model/registry.js';
import type { Ranking, RankSpec } from './rankings.js';

// How requests' rankings were made, counted where they are (services/reco/ranking-cache.ts,
// ranking-walk.ts) as plain increments; the metrics read them when scraped.
export interface ScoringPaths {
  precomputed: number; // served from a list made at training
  cached: number; // a ranking an earlier request made
  inline: number; // scored on the event loop
  pool: number; // scored in this pool
}

export class ScoringPool {
  private readonly pool: Piscina;
  private closed = false;
  readonly paths: ScoringPaths = { precomputed: 0, cached: 0, inline: 0, pool: 0 };

  constructor(threads: number) {
    this.pool = new Piscina({ filename: new URL('./worker.js', import.meta.url).href, minThreads: 0, maxThreads: threads, idleTimeout: 60_000 });
  }

  rank(model: LoadedModel, spec: RankSpec, depth: number): Promise<Ranking> {
    // Closed: refused, as in training/pool.ts (piscina would start threads again after its destroy).
    if (this.closed) return Promise.reject(new Error('the scoring pool is closed'));
    this.paths.pool++;
    return this.pool.run({ model: model.buffer, rows: model.rows.shared, modelId: model.id, spec, depth }, { name: 'rankItems' });
  }

  close(): Promise<void> {
    this.closed = true;
    return this.pool.destroy();
  }
}
