// Rankings per model and query, kept so that later pages and other requests for the same query walk
// the same ranking; each is made on the event loop when it is cheap, in the scoring pool otherwise.
import { LRUCache } from 'lru-cache';
import { rankWithin, type Ranking, type RankSpec } from '../../engine/scoring/rankings.js';
import type { ScoringPaths, ScoringPool } from '../../engine/scoring/pool.js';
import type { LoadedModel } from '../../engine/model/registry.js';
import type { Maybe } from './maybe.js';

const CACHED_RANKINGS = 20_000;

export class RankingCache {
  private readonly rankings = new LRUCache<string, Ranking>({ max: CACHED_RANKINGS });

  constructor(
    private readonly scoring: ScoringPool,
    // Rankings of up to this many multiply-adds run on the event loop; larger ones in the scoring
    // pool. At the default (about 0.3 ms) a pool round trip costs as much as the ranking, and under
    // load the pool puts the other cores to work (bench/RESULTS.md).
    private readonly inlineWork: number,
  ) {}

  get(key: string): Ranking | undefined {
    return this.rankings.get(key);
  }

  get paths(): ScoringPaths {
    return this.scoring.paths;
  }

  set(key: string, r: Ranking): void {
    this.rankings.set(key, r);
  }

  // A ranking at least `depth` deep (or complete): `deeper` when it is (`fromPool` made it), else one
  // made here; undefined when it is too large for the event loop (`fromPool` makes it).
  deepened(model: LoadedModel, spec: RankSpec, depth: number, deeper: Ranking | undefined): Ranking | undefined {
    if (deeper && (deeper.complete || deeper.items.length >= depth)) return deeper;
    return this.inline(model, spec, depth);
  }

  // A ranking `depth` deep, here or from the scoring pool; not kept.
  ranking(model: LoadedModel, spec: RankSpec, depth: number): Maybe<Ranking> {
    return this.inline(model, spec, depth) ?? this.scoring.rank(model, spec, depth);
  }

  // The ranking `deepened` did not make, from the scoring pool.
  fromPool(model: LoadedModel, spec: RankSpec, depth: number): Promise<Ranking> {
    return this.scoring.rank(model, spec, depth);
  }

  private inline(model: LoadedModel, spec: RankSpec, depth: number): Ranking | undefined {
    const r = rankWithin(model, spec, depth, this.inlineWork);
    if (r !== undefined) this.scoring.paths.inline++;
    return r;
  }
}
