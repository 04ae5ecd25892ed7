// The rankings requests walk: how deep each is made (fourfold deeper each time a walk uses it up),
// whether it is made on the event loop or in the scoring pool, the rankings kept per model and query
// so that later pages and other requests walk the same one, and the counters of which path served
// them. Services ask for a ranking and walk it; nothing else decides how it is made.
import { LRUCache } from 'lru-cache';
import type { LoadedModel } from '../model/registry.js';
import type { ScoringPaths, ScoringPool } from './pool.js';
import { listHead, rankWithin, type Ranking, type RankSpec } from './rankings.js';

const CACHED_RANKINGS = 20_000;
// Rankings start this deep and grow fourfold when filters or pages use them up. A vector's ranking
// costs more the deeper it goes (bounded-top.ts: the lower its k-th best, the more rows may still
// enter), so it starts at what the page asks for (twice its items); so does a session's ranking from
// its candidates: a random session ranked 20 deep for a page of 10 instead of 32 took 13.5 µs
// instead of 16.5 (bench/http/reco.ts, random sessions).
const FIRST_DEPTH = 128,
  FIRST_VECTOR_DEPTH = 16;

// A ranking's name within its model: text, or a model row's ranking (an item's neighbours, a user's
// by their factors) as its tag and row, made into text only when a walk goes past the precomputed
// list. V8 keeps a number's text in its number-string cache, so `i${row}` made on every request with
// random rows survived scavenges into the old generation.
export type RankingKey = string | RowKey;
export class RowKey {
  constructor(
    readonly tag: string,
    readonly row: number,
  ) {}

  toString(): string {
    return this.tag + this.row;
  }
}

export class Scorer {
  private readonly kept = new LRUCache<string, Ranking>({ max: CACHED_RANKINGS });

  constructor(
    private readonly pool: ScoringPool,
    // Rankings of up to this many multiply-adds run on the event loop; larger ones in the scoring
    // pool. At the default (about 0.3 ms) a pool round trip costs as much as the ranking, and under
    // load the pool puts the other cores to work.
    private readonly inlineWork: number,
  ) {}

  get paths(): ScoringPaths {
    return this.pool.paths;
  }

  // The ranking of `spec` as deep as a walk goes: the model's precomputed list first, then kept or
  // made ones. key: its name within the model (undefined: not kept); deeper: one the scoring pool made
  // for this walk (`fromPool`).
  ranking(model: LoadedModel, spec: RankSpec, key: RankingKey | undefined, deeper?: Ranking): WalkedRanking {
    return new WalkedRanking(this, model, spec, key, deeper);
  }

  // A ranking `depth` deep, here or from the scoring pool; not kept.
  rank(model: LoadedModel, spec: RankSpec, depth: number): Ranking | Promise<Ranking> {
    return this.inline(model, spec, depth) ?? this.pool.rank(model, spec, depth);
  }

  // The ranking a walk could not make here (WalkedRanking.need deep), from the scoring pool.
  fromPool(model: LoadedModel, spec: RankSpec, depth: number): Promise<Ranking> {
    return this.pool.rank(model, spec, depth);
  }

  // The kept ranking of this key when it goes further than `have` (counted as served from the cache).
  keptBeyond(key: string, have: Ranking | undefined): Ranking | undefined {
    const kept = this.kept.get(key);
    if (kept === undefined || (have !== undefined && kept.items.length <= have.items.length && !kept.complete)) return undefined;
    this.pool.paths.cached++;
    return kept;
  }

  keep(key: string, r: Ranking): void {
    this.kept.set(key, r);
  }

  // The model's precomputed list for the spec (counted as served from it).
  list(model: LoadedModel, spec: RankSpec): Ranking | undefined {
    const head = listHead(model.views, spec);
    if (head !== undefined) this.pool.paths.precomputed++;
    return head;
  }

  // A ranking at least `depth` deep (or complete): `deeper` when it is, else one made here; undefined
  // when it is too large for the event loop.
  deepened(model: LoadedModel, spec: RankSpec, depth: number, deeper: Ranking | undefined): Ranking | undefined {
    if (deeper && (deeper.complete || deeper.items.length >= depth)) return deeper;
    return this.inline(model, spec, depth);
  }

  private inline(model: LoadedModel, spec: RankSpec, depth: number): Ranking | undefined {
    const r = rankWithin(model, spec, depth, this.inlineWork);
    if (r !== undefined) this.pool.paths.inline++;
    return r;
  }
}

// One ranking as far as a walk has needed it.
export class WalkedRanking {
  // Set when the walk needs a ranking deeper than may be made on the event loop: its depth.
  need = 0;
  // The model's precomputed list for the spec, walked first: most pages need nothing deeper, and
  // then neither a ranking nor a lookup of a kept one (nor the key's text) is made.
  readonly head: Ranking | undefined;
  private r: Ranking | undefined;
  private key: string | undefined;

  constructor(
    private readonly scorer: Scorer,
    private readonly model: LoadedModel,
    private readonly spec: RankSpec,
    private readonly rankingKey: RankingKey | undefined,
    private readonly deeper: Ranking | undefined,
  ) {
    this.head = deeper === undefined ? scorer.list(model, spec) : undefined;
    this.r = this.head;
  }

  // The ranking's key among the kept ones (undefined: not kept), made on first use.
  get cacheKey(): string | undefined {
    if (this.rankingKey === undefined) return undefined;
    return (this.key ??= `${this.model.id} ${this.rankingKey}`);
  }

  // The ranking as deep as reached so far (reach() returned true at least once).
  get held(): Ranking {
    return this.r!;
  }

  // Is ranking position `at` held, deepening the ranking (for `want` more items) when it can go
  // further? false as well when the deeper ranking may not be made here (`need`).
  reach(at: number, want: number): boolean {
    let r = this.r;
    if (r === undefined || (r === this.head && at >= r.items.length && !r.complete)) {
      const kept = this.cacheKey === undefined ? undefined : this.scorer.keptBeyond(this.cacheKey, r);
      if (kept !== undefined) r = this.r = kept;
    }
    while (!r || (at >= r.items.length && !r.complete)) {
      const first = this.spec.kind === 'vector' || this.spec.kind === 'session' ? FIRST_VECTOR_DEPTH : FIRST_DEPTH;
      const depth = Math.max(first, (r?.items.length ?? 0) * 4, at + 2 * want);
      r = this.scorer.deepened(this.model, this.spec, depth, this.deeper);
      if (!r) {
        this.need = depth;
        return false;
      }
      this.r = r;
      if (this.cacheKey !== undefined) this.scorer.keep(this.cacheKey, r);
    }
    return at < r.items.length;
  }
}
